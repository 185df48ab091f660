/**
 * The few parts of POSIX ustar a backup needs: regular files and directories, written and read in
 * memory. Names longer than 100 bytes use the ustar prefix field (up to 255 in all). The result opens
 * with any `tar` (`tar tzf backup.tar.gz` lists it).
 */

export interface TarEntry {
  name: string;
  /** Absent for a directory. */
  data?: Uint8Array;
  mode?: number;
}

const BLOCK = 512;
const enc = new TextEncoder();
const dec = new TextDecoder();

function field(h: Uint8Array, at: number, len: number, value: string): void {
  h.set(enc.encode(value).subarray(0, len), at);
}

const octal = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`;

function header(e: TarEntry, mtime: number): Uint8Array {
  const dir = e.data === undefined;
  let name = dir && !e.name.endsWith('/') ? `${e.name}/` : e.name;
  let prefix = '';
  if (enc.encode(name).length > 100) {
    const cut = name.lastIndexOf('/', name.length - 2);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
    if (cut <= 0 || enc.encode(prefix).length > 155 || enc.encode(name).length > 100)
      throw new Error(`tar: name too long: ${e.name}`);
  }
  const h = new Uint8Array(BLOCK);
  field(h, 0, 100, name);
  field(h, 100, 8, octal(e.mode ?? (dir ? 0o755 : 0o644), 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(dir ? 0 : (e.data as Uint8Array).length, 12));
  field(h, 136, 12, octal(Math.floor(mtime / 1000), 12));
  field(h, 148, 8, '        ');
  h[156] = dir ? 0x35 : 0x30;
  field(h, 257, 6, 'ustar\0');
  field(h, 263, 2, '00');
  field(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

export function writeTar(entries: TarEntry[], mtime = Date.now()): Uint8Array {
  let size = 2 * BLOCK;
  for (const e of entries) size += BLOCK + Math.ceil((e.data?.length ?? 0) / BLOCK) * BLOCK;
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of entries) {
    out.set(header(e, mtime), at);
    at += BLOCK;
    if (e.data) {
      out.set(e.data, at);
      at += Math.ceil(e.data.length / BLOCK) * BLOCK;
    }
  }
  return out;
}

const text = (b: Uint8Array, at: number, len: number) =>
  dec.decode(b.subarray(at, at + len)).replace(/\0.*$/s, '');

/** Every file and directory of a ustar archive (PGlite's dumps and ours), in order. */
export function readTar(buf: Uint8Array): TarEntry[] {
  const out: TarEntry[] = [];
  for (let at = 0; at + BLOCK <= buf.length; ) {
    const name = text(buf, at, 100);
    if (!name) break;
    const prefix = text(buf, at + 345, 155);
    const size = Number.parseInt(text(buf, at + 124, 12).trim() || '0', 8);
    const mode = Number.parseInt(text(buf, at + 100, 8).trim() || '0', 8);
    const type = String.fromCharCode(buf[at + 156] ?? 0);
    if (!Number.isFinite(size) || at + BLOCK + size > buf.length) throw new Error('tar: truncated archive');
    const full = prefix ? `${prefix}/${name}` : name;
    if (type === '5') out.push({ name: full.replace(/\/$/, ''), mode });
    else if (type === '0' || type === '\0')
      out.push({ name: full, mode, data: buf.slice(at + BLOCK, at + BLOCK + size) });
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}
