import { readPdf } from '/work/main/dist/libs/extraction/src/documents/pdf.js';
import zlib from 'node:zlib';
const mb = Number(process.argv[2]);
const op = Buffer.from('BT /F1 12 Tf 72 720 Td (bomb) Tj ET\n');
const content = zlib.deflateSync(Buffer.alloc(mb * 1048576, op), { level: 9 });
const objs = ['<< /Type /Catalog /Pages 2 0 R >>','<< /Type /Pages /Kids [3 0 R] /Count 1 >>','<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>', Buffer.concat([Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`), content, Buffer.from('\nendstream')]), '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
let parts = [Buffer.from('%PDF-1.7\n')]; const offs = [];
let len = parts[0].length;
objs.forEach((o, i) => { offs.push(len); const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(o) ? o : Buffer.from(o), Buffer.from('\nendobj\n')]); parts.push(b); len += b.length; });
const xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n` + offs.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') + `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${len}\n%%EOF\n`;
const bytes = Buffer.concat([...parts, Buffer.from(xref)]);
let maxLag = 0, last = Date.now(); const t = setInterval(() => { const n = Date.now(); maxLag = Math.max(maxLag, n - last - 10); last = n; }, 10);
let peak = 0; const m = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
const s = Date.now();
try { await readPdf(bytes, { maxPages: 10, maxUnpackedBytes: 1e7, deadline: Date.now() + 300 }); } catch (e) { console.log(e.code, e.message); }
clearInterval(t); clearInterval(m);
console.log(`${mb}MB: ${Date.now() - s} ms, max event-loop block ${maxLag} ms, peak RSS ${(peak / 1048576).toFixed(0)} MiB`);
