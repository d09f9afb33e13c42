// The two XML documents of S3's protocol the embedded store speaks: the CompleteMultipartUpload request
// (read strictly by a small function: the only elements allowed are the ones S3 documents, so no XML
// parser and none of its surprises) and the answers (errors and the completion's result).

export interface CompletedPart {
  partNumber: number;
  /** The ETag as the client sent it, unquoted: the part's hex MD5. */
  etag: string;
}

/** The parts a CompleteMultipartUpload body names, or a message saying why it is malformed. */
export function parseCompleteMultipartUpload(xml: string): CompletedPart[] | { malformed: string } {
  let text = xml.replace(/^\uFEFF/, '').trim();
  text = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root = /^<CompleteMultipartUpload(\s+xmlns="[^"<>]*")?\s*>([\s\S]*)<\/CompleteMultipartUpload>$/.exec(text);
  if (!root) return { malformed: 'the body is not a CompleteMultipartUpload document' };
  const parts: CompletedPart[] = [];
  let rest = root[2] ?? '';
  const partPattern = /^\s*<Part>\s*([\s\S]*?)\s*<\/Part>/;
  for (let match = partPattern.exec(rest); match; match = partPattern.exec(rest)) {
    const part = parsePart(match[1] ?? '');
    if ('malformed' in part) return part;
    parts.push(part);
    rest = rest.slice(match[0].length);
  }
  if (rest.trim() !== '') return { malformed: 'unexpected content in CompleteMultipartUpload' };
  if (parts.length === 0) return { malformed: 'no Part in CompleteMultipartUpload' };
  return parts;
}

function parsePart(body: string): CompletedPart | { malformed: string } {
  const fields = new Map<string, string>();
  let rest = body;
  const fieldPattern = /^\s*<([A-Za-z0-9]+)>([^<]*)<\/\1>/;
  for (let match = fieldPattern.exec(rest); match; match = fieldPattern.exec(rest)) {
    const name = match[1] ?? '';
    if (fields.has(name)) return { malformed: `${name} twice in a Part` };
    fields.set(name, match[2] ?? '');
    rest = rest.slice(match[0].length);
  }
  if (rest.trim() !== '') return { malformed: 'unexpected content in a Part' };
  for (const name of fields.keys()) {
    // Checksums a client may add are accepted and ignored: the part's MD5 was checked when it arrived.
    if (!['PartNumber', 'ETag', 'ChecksumCRC32', 'ChecksumCRC32C', 'ChecksumSHA1', 'ChecksumSHA256'].includes(name)) {
      return { malformed: `unknown element ${name} in a Part` };
    }
  }
  const number = fields.get('PartNumber') ?? '';
  if (!/^[1-9][0-9]{0,4}$/.test(number) || Number(number) > 10_000) return { malformed: 'PartNumber is not 1…10000' };
  const etag = unescapeXml(fields.get('ETag') ?? '')
    .trim()
    .replace(/^"(.*)"$/, '$1');
  if (!/^[0-9a-f]{32}$/i.test(etag)) return { malformed: 'ETag is not a quoted MD5' };
  return { partNumber: Number(number), etag: etag.toLowerCase() };
}

function unescapeXml(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|apos);/g, (_, name: string) => xmlEntities[name] ?? '');
}

const xmlEntities: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&${xmlEscapes[character] ?? ''};`);
}

const xmlEscapes: Record<string, string> = { '"': 'quot', '&': 'amp', '<': 'lt', '>': 'gt', "'": 'apos' };

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** S3's error document. */
export function errorXml(code: string, message: string): string {
  return `${declaration}<Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message></Error>`;
}

/** S3's answer to a completed multipart upload. */
export function completeResultXml(key: string, etag: string): string {
  return (
    `${declaration}<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
    `<Key>${escapeXml(key)}</Key><ETag>${escapeXml(etag)}</ETag></CompleteMultipartUploadResult>`
  );
}
