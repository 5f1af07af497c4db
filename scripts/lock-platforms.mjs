// The registry mirror this project is developed against lacks other platforms' optional binaries (darwin and
// win32 builds of @swc/core, mdream, unrs, msgpackr-extract), so `npm install` leaves them out of the lock file and
// `npm ci` then refuses it. This adds their lock entries (version, os, cpu; no download address), exactly what a
// full registry would record: run it after every `npm install` (`npm run lock:platforms`).
import fs from 'node:fs';
const file = process.argv[2] ?? "package-lock.json";
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pk = lock.packages;
const osMap = { darwin: 'darwin', win32: 'win32', linux: 'linux', android: 'android', freebsd: 'freebsd', openharmony: 'openharmony', wasm32: null };
let added = 0;
for (const [path, meta] of Object.entries(pk)) {
  for (const [name, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pk[key] || pk[`${path}/node_modules/${name}`]) continue;
    const tail = name.split('/').pop();
    const m = tail.match(/(darwin|win32|linux|android|freebsd|openharmony|wasm32)-(arm64|x64|ia32|arm|ppc64|s390x|riscv64|loong64|wasi)(?:-(gnu|musl|msvc|eabi|gnueabihf|musleabihf))?(?:-(gnu|musl|gnueabihf|musleabihf|eabi))?$/);
    if (!m) { console.error('skip', name); continue; }
    const version = spec.replace(/^[\^~=]/, '');
    const entry = { version, optional: true };
    if (m[1] === 'wasm32') entry.cpu = ['wasm32'];
    else { entry.os = [m[1]]; entry.cpu = [m[2]]; }
    const abi = m[3] ?? m[4];
    if (m[1] === 'linux' && abi) entry.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
    pk[key] = entry;
    added++;
  }
}
// keep keys sorted like npm does
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
