// The four photos routes the upload calls (docs/protocol.md#photos), through the app's authenticated HTTP
// client (@ente/shared/http.ts: the token comes from kv and is never logged), their failures turned into
// UploadErrors. The signed object-store URLs are used by the upload worker, not here.
import {
  multipartUploadUrlResponseSchema,
  photoFileSchema,
  uploadUrlResponseSchema,
  type CreateFileRequest,
  type MultipartUploadUrlResponse,
  type PhotoFile,
  type UploadUrlResponse,
} from '@ente/protocol/photos.ts';
import {
  ApiError,
  ClientError,
  NetworkError,
  post,
  postJSON,
  RequestCanceledError,
  ServerError,
} from '@ente/shared/http.ts';

import { UploadError } from './types.ts';

export interface UploadApi {
  uploadURL(body: { contentLength: number; contentMD5: string }, signal?: AbortSignal): Promise<UploadUrlResponse>;
  multipartUploadURLs(
    body: { contentLength: number; partLength: number; partMd5s: string[] },
    signal?: AbortSignal,
  ): Promise<MultipartUploadUrlResponse>;
  createFile(body: CreateFileRequest, signal?: AbortSignal): Promise<PhotoFile>;
  addFiles(
    body: { collectionID: number; files: { id: number; encryptedKey: string; keyDecryptionNonce: string }[] },
    signal?: AbortSignal,
  ): Promise<void>;
}

/** An HTTP failure as the upload reports it. */
export function uploadErrorOf(error: unknown): UploadError {
  if (error instanceof UploadError) return error;
  if (error instanceof RequestCanceledError) return new UploadError('cancelled');
  if (error instanceof NetworkError) return new UploadError('network');
  if (error instanceof ApiError || error instanceof ClientError || error instanceof ServerError) {
    if (error.httpStatus === 426) return new UploadError('storageLimit');
    if (error.httpStatus === 413) return new UploadError('tooLarge');
    return new UploadError('server', `the server answered ${error.httpStatus}`);
  }
  return new UploadError('unknown', error instanceof Error ? error.message : String(error));
}

async function mapped<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (e) {
    throw uploadErrorOf(e);
  }
}

export const photosUploadApi: UploadApi = {
  uploadURL: (body, signal) =>
    mapped(postJSON('/files/upload-url', body, uploadUrlResponseSchema, { auth: true, signal })),
  multipartUploadURLs: (body, signal) =>
    mapped(postJSON('/files/multipart-upload-url', body, multipartUploadUrlResponseSchema, { auth: true, signal })),
  createFile: (body, signal) => mapped(postJSON('/files', body, photoFileSchema, { auth: true, signal })),
  addFiles: (body, signal) => mapped(post('/collections/add-files', body, { auth: true, signal })),
};
