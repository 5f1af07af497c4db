// Jest global set-up: filled in by the platform tests (database, Redis checks).
export default async function globalSetup() {}
