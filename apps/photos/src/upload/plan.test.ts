/** @jest-environment node */
// Part planning, the multipart completion body and the staging choice (plan.ts).
import { describe, expect, test } from '@jest/globals';

import {
  chooseStaging,
  completeMultipartBody,
  MAX_MEMORY_STAGING_BYTES,
  MAX_OBJECT_BYTES,
  planObjectUpload,
  UPLOAD_PART_BYTES,
} from './plan.ts';

describe('planObjectUpload', () => {
  test('one part is a single PUT with that MD5', () => {
    expect(planObjectUpload(17, UPLOAD_PART_BYTES, ['a'])).toEqual({ kind: 'single', size: 17, md5: 'a' });
    expect(planObjectUpload(UPLOAD_PART_BYTES, UPLOAD_PART_BYTES, ['a'])).toEqual({
      kind: 'single',
      size: UPLOAD_PART_BYTES,
      md5: 'a',
    });
  });

  test('more is multipart: numbered parts, the last one shorter', () => {
    const size = 2 * UPLOAD_PART_BYTES + 5;
    const plan = planObjectUpload(size, UPLOAD_PART_BYTES, ['a', 'b', 'c']);
    expect(plan).toEqual({
      kind: 'multipart',
      size,
      partLength: UPLOAD_PART_BYTES,
      parts: [
        { partNumber: 1, offset: 0, length: UPLOAD_PART_BYTES, md5: 'a' },
        { partNumber: 2, offset: UPLOAD_PART_BYTES, length: UPLOAD_PART_BYTES, md5: 'b' },
        { partNumber: 3, offset: 2 * UPLOAD_PART_BYTES, length: 5, md5: 'c' },
      ],
    });
  });

  test('the part size is five encrypted chunks, at least the 5 MiB S3 asks of every part but the last', () => {
    expect(UPLOAD_PART_BYTES).toBe(20_971_605);
    expect(UPLOAD_PART_BYTES).toBeGreaterThanOrEqual(5 * 1024 * 1024);
  });

  test('refuses MD5s that do not match the number of parts', () => {
    expect(() => planObjectUpload(UPLOAD_PART_BYTES + 1, UPLOAD_PART_BYTES, ['a'])).toThrow(RangeError);
    expect(() => planObjectUpload(10, UPLOAD_PART_BYTES, ['a', 'b'])).toThrow(RangeError);
  });
});

test('completeMultipartBody lists the ETags in order, escaped', () => {
  expect(completeMultipartBody(['"e1"', '"e<2>"'])).toBe(
    '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"e1"</ETag></Part>' +
      '<Part><PartNumber>2</PartNumber><ETag>"e&lt;2&gt;"</ETag></Part></CompleteMultipartUpload>',
  );
});

test('chooseStaging: memory for one part, OPFS beyond, memory up to its bound without OPFS', () => {
  expect(chooseStaging(UPLOAD_PART_BYTES, UPLOAD_PART_BYTES, true)).toBe('memory');
  expect(chooseStaging(UPLOAD_PART_BYTES + 1, UPLOAD_PART_BYTES, true)).toBe('opfs');
  expect(chooseStaging(6 * 1024 * 1024, 5 * 1024 * 1024, true)).toBe('opfs');
  expect(chooseStaging(UPLOAD_PART_BYTES + 1, UPLOAD_PART_BYTES, false)).toBe('memory');
  expect(chooseStaging(MAX_MEMORY_STAGING_BYTES + 1, UPLOAD_PART_BYTES, false)).toBe('tooLarge');
  expect(chooseStaging(MAX_OBJECT_BYTES + 1, UPLOAD_PART_BYTES, true)).toBe('tooLarge');
});
