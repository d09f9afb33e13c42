// The S3-compatible object store: the ObjectStore interface over one bucket, with @aws-sdk/client-s3 for
// the server's own calls (create/abort a multipart upload, head, delete, list) and its presigner for the
// URLs the clients follow straight to the store. The SDK is imported when a store is opened, so a server
// on the embedded store never loads it (the build keeps it an import of its own).
import type * as Sdk from '@aws-sdk/client-s3';
import type { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import {
  assertKey,
  type MultipartUploadInfo,
  type ObjectInfo,
  type ObjectStore,
  type PutTerms,
} from './object-store.ts';

export interface S3StoreOptions {
  /** The store's URL (https://s3.example.org); undefined: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Both or neither: neither leaves the SDK's usual sources (AWS_* variables, instance roles). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** URLs as https://endpoint/bucket/key instead of https://bucket.endpoint/key (MinIO, s3rver, Garage). */
  forcePathStyle: boolean;
}

type Presign = typeof getSignedUrl;

export class S3ObjectStore implements ObjectStore {
  readonly bucket: string;
  /** The origin the clients' requests go to (for CSP and the CORS check). */
  readonly origin: string;

  private readonly sdk: typeof Sdk;
  private readonly presign: Presign;
  private readonly client: Sdk.S3Client;

  private constructor(sdk: typeof Sdk, presign: Presign, client: Sdk.S3Client, bucket: string, origin: string) {
    this.sdk = sdk;
    this.presign = presign;
    this.client = client;
    this.bucket = bucket;
    this.origin = origin;
  }

  static async open(options: S3StoreOptions): Promise<S3ObjectStore> {
    const [sdk, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
    const credentials =
      options.accessKeyId !== undefined && options.secretAccessKey !== undefined
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined;
    const client = new sdk.S3Client({
      endpoint: options.endpoint,
      region: options.region,
      credentials,
      forcePathStyle: options.forcePathStyle,
      // The SDK would otherwise add CRC32 checksum headers to every presigned PUT, which a browser's
      // request then lacks; the MD5 the clients send is the integrity check (Content-MD5, signed).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const probe = await presigner.getSignedUrl(
      client,
      new sdk.GetObjectCommand({ Bucket: options.bucket, Key: 'probe' }),
      { expiresIn: 60 },
    );
    return new S3ObjectStore(sdk, presigner.getSignedUrl, client, options.bucket, new URL(probe).origin);
  }

  async close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }

  // Presigned URLs. Content-Length and Content-MD5 stay headers that the signature covers: a body of
  // another length or digest is refused by the store.

  async presignPut(key: string, terms: PutTerms): Promise<string> {
    assertKey(key);
    const command = new this.sdk.PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentLength: terms.length,
      ContentMD5: terms.md5,
    });
    return this.presign(this.client, command, signOptions(terms.expiresInSeconds));
  }

  async createMultipartUpload(key: string): Promise<string> {
    assertKey(key);
    const { UploadId } = await this.client.send(
      new this.sdk.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }),
    );
    if (!UploadId) throw new Error('the store answered CreateMultipartUpload without an UploadId');
    return UploadId;
  }

  async presignPart(key: string, uploadId: string, partNumber: number, terms: PutTerms): Promise<string> {
    assertKey(key);
    const command = new this.sdk.UploadPartCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      ContentLength: terms.length,
      ContentMD5: terms.md5,
    });
    return this.presign(this.client, command, signOptions(terms.expiresInSeconds));
  }

  /** The body is not signed (presigned URLs carry UNSIGNED-PAYLOAD): the client POSTs its own XML. */
  async presignComplete(key: string, uploadId: string, expiresInSeconds: number): Promise<string> {
    assertKey(key);
    const command = new this.sdk.CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId });
    return this.presign(this.client, command, signOptions(expiresInSeconds));
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    assertKey(key);
    try {
      await this.client.send(
        new this.sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async presignGet(key: string, expiresInSeconds: number): Promise<string> {
    assertKey(key);
    const command = new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key });
    return this.presign(this.client, command, signOptions(expiresInSeconds));
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertKey(key);
    try {
      const answer = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: answer.ContentLength ?? 0, modifiedAt: answer.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    try {
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores answer 404.
      if (!isNotFound(error)) throw error;
    }
  }

  async *list(): AsyncIterable<ObjectInfo> {
    for await (const page of this.sdk.paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket })) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
    }
  }

  async *listMultipartUploads(): AsyncIterable<MultipartUploadInfo> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new this.sdk.ListMultipartUploadsCommand({
          Bucket: this.bucket,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (upload.Key === undefined || upload.UploadId === undefined) continue;
        yield { key: upload.Key, uploadId: upload.UploadId, startedAt: upload.Initiated?.getTime() ?? 0 };
      }
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /** HEAD of the bucket: undefined when it answers, else why not (for the start-up check). */
  async bucketProblem(): Promise<string | undefined> {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }));
      return undefined;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return `bucket "${this.bucket}" does not exist`;
      if (status === 403) return `the credentials may not use bucket "${this.bucket}" (403)`;
      // Without an HTTP answer the cause is in the message (connect ECONNREFUSED …, getaddrinfo ENOTFOUND …).
      const cause = error instanceof Error ? [error.name, error.message].filter((part) => part !== '').join(': ') : '';
      return `bucket "${this.bucket}" did not answer as expected: ${cause.slice(0, 200)}${status ? ` (HTTP ${String(status)})` : ''}`;
    }
  }
}

function signOptions(expiresInSeconds: number) {
  return {
    expiresIn: Math.ceil(expiresInSeconds),
    // Signed, and kept as headers (not moved into the query): the browser sends them.
    signableHeaders: new Set(['content-length', 'content-md5']),
    unhoistableHeaders: new Set(['content-md5']),
  };
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return name === 'NoSuchKey' || name === 'NoSuchUpload' || name === 'NotFound' || statusOf(error) === 404;
}
