// Jest runs TypeScript through @swc/jest as native ESM (see ENVIRONMENT.md: ts-jest cannot load Nest 12 ESM).
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  cacheDirectory: '<rootDir>/.jest-cache',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  // Package aliases (package.json "imports") point at dist/ for Node; tests run the TypeScript sources.
  moduleNameMapper: {
    '^#apps/(.*)\\.js$': '<rootDir>/apps/$1',
    '^#test/(.*)\\.js$': '<rootDir>/test/$1',
    '^#bench/(.*)\\.js$': '<rootDir>/bench/$1',
    '^#([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^#([a-z-]+)/(.*)\\.js$': '<rootDir>/libs/$1/src/$2',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts', '<rootDir>/{apps,libs,test}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/test/support/global-setup.js',
  testTimeout: 30000,
  // A worker that holds more than this after a test file is replaced: with ESM modules Jest's workers keep growing
  // (1.4 GB of live heap was measured in one by the time it reached the load test), and every later file slows.
  workerIdleMemoryLimit: '1GB',
};
