/** Vite imports the stylesheet; TypeScript only needs to know the import exists. */
declare module '*.css';
