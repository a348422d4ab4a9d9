import { HttpError, UNKNOWN_ERROR } from '../http/http-error.ts';

export type Progress = (loaded: number, total: number) => void;

/** Sends a multipart form and answers the parsed body; throws HttpError like the HTTP helper. */
export type Uploader = (
  url: string,
  headers: Record<string, string>,
  form: FormData,
  onProgress: Progress,
) => Promise<unknown>;

const parse = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
};

/** SPEC §2 Uppgifter shows a progress bar: only XMLHttpRequest reports upload progress. */
export const xhrUploader: Uploader = (url, headers, form, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new HttpError(xhr.status, `${xhr.status} ${xhr.statusText}`.trim(), 'POST', url, body));
    };
    xhr.onerror = () => reject(new HttpError(0, UNKNOWN_ERROR, 'POST', url));
    xhr.send(form);
  });

/** Where XMLHttpRequest is missing (Node tests): fetch, with progress only at the end. */
export function fetchUploader(fetchFn: typeof fetch): Uploader {
  return async (url, headers, form, onProgress) => {
    let response: Response;
    try {
      response = await fetchFn(url, { method: 'POST', headers, body: form });
    } catch {
      throw new HttpError(0, UNKNOWN_ERROR, 'POST', url);
    }
    const body = parse(await response.text().catch(() => ''));
    if (!response.ok) throw new HttpError(response.status, `${response.status}`, 'POST', url, body);
    const size = [...form.values()].reduce((n, v) => n + (typeof v === 'string' ? 0 : v.size), 0);
    onProgress(size, size);
    return body;
  };
}
