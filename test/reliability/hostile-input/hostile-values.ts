/**
 * Hostile values, as they are written into a query string (already percent-encoded, or deliberately not), chosen by
 * the JSON Schema type of the parameter they are aimed at. Seeds (a parameter's default, enum values and examples)
 * are mutated too, so near-misses of a valid value are tried, not only garbage.
 */

/** A value for a query string: `raw` goes into the URL exactly as written. */
export interface RawValue {
  label: string;
  raw: string;
  /** True when the contract says this value can never be valid for the parameter (checked against the schema). */
  mustBeInvalid?: boolean;
}

/** Characters and encodings that have broken parsers before: every parameter gets these. */
export const COMMON_RAW: readonly RawValue[] = [
  { label: 'empty', raw: '' },
  { label: 'space', raw: '%20' },
  { label: 'plus as space', raw: '+' },
  { label: 'tab', raw: '%09' },
  { label: 'CRLF', raw: '%0D%0A' },
  { label: 'header injection', raw: 'x%0D%0ASet-Cookie:%20a=b' },
  { label: 'NUL', raw: '%00' },
  { label: 'NUL inside', raw: 'a%00b' },
  { label: 'RTL override', raw: '%E2%80%AEabc' },
  { label: 'zero-width space', raw: '%E2%80%8B' },
  { label: 'byte-order mark', raw: '%EF%BB%BFx' },
  { label: 'lone surrogate (UTF-8 of U+D800)', raw: '%ED%A0%80' },
  { label: 'overlong slash', raw: '%C0%AF' },
  { label: 'invalid UTF-8 byte', raw: '%FF%FE' },
  { label: 'truncated UTF-8', raw: '%E2%82' },
  { label: 'invalid percent %zz', raw: '%zz' },
  { label: 'lone percent', raw: '%' },
  { label: 'half percent', raw: '%2' },
  { label: 'percent percent', raw: '%%41' },
  { label: 'IIS %u', raw: '%u0041' },
  { label: 'emoji', raw: '%F0%9F%92%A9' },
  { label: 'CJK', raw: '%E4%B8%AD%E6%96%87' },
  { label: 'combining marks', raw: 'a%CC%8A%CC%8A%CC%8A' },
  { label: 'NEL', raw: '%C2%85' },
  { label: 'null', raw: 'null' },
  { label: 'undefined', raw: 'undefined' },
  { label: 'NaN', raw: 'NaN' },
  { label: 'JSON array', raw: '%5B%5D' },
  { label: 'JSON object', raw: '%7B%22a%22%3A1%7D' },
  { label: 'script', raw: '%3Cscript%3Ealert(1)%3C%2Fscript%3E' },
  { label: 'SQL', raw: "'%20OR%201%3D1--" },
  { label: 'path traversal', raw: '..%2F..%2Fetc%2Fpasswd' },
  { label: 'log4j', raw: '%24%7Bjndi%3Aldap%3A%2F%2Fx%2Fa%7D' },
  { label: 'prototype', raw: '__proto__' },
  { label: 'true', raw: 'true' },
  { label: 'false', raw: 'false' },
  { label: 'zero', raw: '0' },
  { label: 'minus one', raw: '-1' },
  { label: 'comma list', raw: 'a,b' },
  { label: 'just commas', raw: '%2C%2C' },
  { label: 'ampersand encoded', raw: 'a%26b%3Dc' },
  { label: 'equals inside', raw: 'a=b=c' },
  { label: 'semicolon', raw: 'a;b' },
  { label: 'hash encoded', raw: '%23frag' },
  { label: '2049 characters', raw: 'a'.repeat(2049) },
  { label: '8 KB', raw: 'b'.repeat(8 * 1024) },
];

/** Values longer than any request line the server accepts: the answer is 414, before any parameter is read. */
export const OVERSIZE_RAW: readonly RawValue[] = [
  { label: '100 KB', raw: 'c'.repeat(100 * 1024) },
  { label: '100 KB of encoded NULs', raw: '%00'.repeat(34 * 1024) },
];

export const BOOLEAN_RAW: readonly string[] = [
  'TRUE', 'True', 'FALSE', '1', '0', 'yes', 'no', 'on', 'off', 't', 'f', 'tru', '%20true', 'true%20', 'true%00',
  'true,false', 'false%0A', '%74rue', '%EF%BD%94%EF%BD%92%EF%BD%95%EF%BD%85', '',
];

/** Integers: range edges come from the schema's minimum/maximum; these are the forms that are not integers. */
export const INTEGER_FORMS: readonly string[] = [
  'NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '1e3', '1E1', '0x10', '0o7', '0b1', '1_000', '1.5', '1.0', '+1',
  '%201', '1%20', '00001', '-0', '%EF%BC%99', '%D9%A1', '9'.repeat(16), '9'.repeat(400), '1,2', '1;2', '2147483648',
  '4294967296', '9007199254740993', '-9007199254740993', '0.0000001', '.5', '5.', '1e-7', '%2D1', '%E4%B8%80',
];

/**
 * URL entries for list parameters of URLs: schemes, credentials, internal addresses, broken syntax. Every entry the
 * schema accepts names a loopback or internal address or a `.invalid` host (RFC 6761: never resolves), because the
 * suite crawls them with a funded key: each must be refused by the SSRF guard, never fetched from the internet.
 */
export const URL_ENTRIES: readonly RawValue[] = [
  { label: 'javascript:', raw: encodeURIComponent('javascript:alert(1)'), mustBeInvalid: true },
  { label: 'file:', raw: encodeURIComponent('file:///etc/passwd'), mustBeInvalid: true },
  { label: 'data:', raw: encodeURIComponent('data:text/html,<b>x</b>'), mustBeInvalid: true },
  { label: 'ftp:', raw: encodeURIComponent('ftp://unreachable.invalid/'), mustBeInvalid: true },
  { label: 'gopher:', raw: encodeURIComponent('gopher://127.0.0.1:6379/_INFO'), mustBeInvalid: true },
  { label: 'ws:', raw: encodeURIComponent('ws://unreachable.invalid/'), mustBeInvalid: true },
  { label: 'credentials', raw: encodeURIComponent('http://user:pass@unreachable.invalid/'), mustBeInvalid: true },
  { label: 'user only', raw: encodeURIComponent('http://user@unreachable.invalid/'), mustBeInvalid: true },
  { label: 'no host', raw: encodeURIComponent('http://'), mustBeInvalid: true },
  { label: 'scheme-relative', raw: encodeURIComponent('//unreachable.invalid/'), mustBeInvalid: true },
  { label: 'no scheme', raw: 'unreachable.invalid', mustBeInvalid: true },
  { label: 'bad port', raw: encodeURIComponent('http://unreachable.invalid:99999/'), mustBeInvalid: true },
  { label: 'space in host', raw: encodeURIComponent('http://exa mple.com/'), mustBeInvalid: true },
  { label: 'longer than 2048', raw: encodeURIComponent(`https://unreachable.invalid/${'a'.repeat(2100)}`), mustBeInvalid: true },
  { label: 'IPv6 loopback', raw: encodeURIComponent('http://[::1]/') },
  { label: 'IPv4-mapped IPv6', raw: encodeURIComponent('http://[::ffff:127.0.0.1]/') },
  { label: 'IPv6 unspecified', raw: encodeURIComponent('http://[::]/') },
  { label: 'IPv6 link-local', raw: encodeURIComponent('http://[fe80::1]/') },
  { label: 'hex dotted', raw: encodeURIComponent('http://0x7f.1/') },
  { label: 'hex integer', raw: encodeURIComponent('http://0x7f000001/') },
  { label: 'decimal integer', raw: encodeURIComponent('http://2130706433/') },
  { label: 'octal', raw: encodeURIComponent('http://017700000001/') },
  { label: 'short form', raw: encodeURIComponent('http://127.1/') },
  { label: 'zero', raw: encodeURIComponent('http://0/') },
  { label: 'localhost', raw: encodeURIComponent('http://localhost/') },
  { label: 'localhost.', raw: encodeURIComponent('http://localhost./') },
  { label: 'metadata IP', raw: encodeURIComponent('http://169.254.169.254/latest/meta-data/') },
  { label: 'metadata host', raw: encodeURIComponent('http://metadata.google.internal/computeMetadata/v1/') },
  { label: 'internal redis', raw: encodeURIComponent('http://redis:6379/') },
  { label: 'internal k8s', raw: encodeURIComponent('https://kubernetes.default.svc/') },
  { label: 'private 10/8', raw: encodeURIComponent('http://10.0.0.1/') },
  { label: 'private 192.168', raw: encodeURIComponent('http://192.168.1.1/') },
  { label: 'IDN', raw: encodeURIComponent('http://例え.invalid/') },
  { label: 'backslash authority', raw: encodeURIComponent('http://127.0.0.1\\@evil.invalid/') },
  { label: 'upper-case scheme', raw: encodeURIComponent('HTTP://LOCALHOST/') },
  { label: 'fragment', raw: encodeURIComponent('http://127.0.0.1/#top') },
  { label: 'raw invalid escape in path', raw: encodeURIComponent('http://127.0.0.1/%zz') },
  { label: 'empty entry', raw: encodeURIComponent('https://a.example,,https://b.example'), mustBeInvalid: true },
  { label: 'trailing comma', raw: encodeURIComponent('https://a.example,'), mustBeInvalid: true },
  { label: 'only commas', raw: '%2C%2C%2C', mustBeInvalid: true },
];

const MUTATIONS: ReadonlyArray<[string, (seed: string) => string, boolean?]> = [
  ['as is', (s) => encodeURIComponent(s)],
  ['upper case', (s) => encodeURIComponent(s.toUpperCase())],
  ['padded', (s) => `%20${encodeURIComponent(s)}%20`],
  ['NUL suffix', (s) => `${encodeURIComponent(s)}%00`],
  ['zero-width inside', (s) => `${encodeURIComponent(s.slice(0, 1))}%E2%80%8B${encodeURIComponent(s.slice(1))}`],
  ['RTL prefix', (s) => `%E2%80%AE${encodeURIComponent(s)}`],
  ['double-encoded', (s) => encodeURIComponent(encodeURIComponent(s))],
  ['repeated 500 times', (s) => encodeURIComponent(s.repeat(500))],
  ['last character cut', (s) => encodeURIComponent(s.slice(0, -1))],
  ['fullwidth', (s) => encodeURIComponent(s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)))],
];

/** Near-misses of each valid seed. */
export function seedMutations(seeds: readonly string[]): RawValue[] {
  return [...new Set(seeds)].flatMap((seed) => MUTATIONS.map(([label, mutate]) => ({ label: `${label} ${JSON.stringify(seed)}`, raw: mutate(seed) })));
}

/** Typed JSON values for JSON bodies (MCP arguments, admin bodies), by the JSON Schema type they are aimed at. */
export const JSON_COMMON: ReadonlyArray<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['huge number', 1e308],
  ['empty string', ''],
  ['space', ' '],
  ['NUL', '\u0000'],
  ['NUL inside', 'a\u0000b'],
  ['lone surrogate', '\ud800'],
  ['RTL override', '\u202eabc'],
  ['zero-width', '\u200b'],
  ['emoji', '💩'],
  ['string "true"', 'true'],
  ['string "1"', '1'],
  ['string 3 KB', 'x'.repeat(3000)],
  ['string 100 KB', 'y'.repeat(100 * 1024)],
  ['empty array', []],
  ['array of string', ['a']],
  ['array of null', [null]],
  ['empty object', {}],
  ['object', { a: 1 }],
  ['prototype object', JSON.parse('{"__proto__":{"polluted":true}}')],
];

/** Numbers JSON cannot carry, written into the JSON text in place of a placeholder string. */
export const JSON_RAW_NUMBERS: readonly string[] = ['1e309', '-1e309', '1e-400', '9007199254740993', '-0', '1.0e2'];
