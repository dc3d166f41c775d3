// Talking to the server: JSON in and out; a refusal becomes an ApiError carrying the input and
// the reason the server named, which the page shows as is.

export class ApiError extends Error {
  constructor(status, input, reason) {
    super(`${input}: ${reason}`);
    this.status = status;
    this.input = input;
    this.reason = reason;
  }
}

export async function api(path, { method = "GET", json = undefined, body = undefined,
  headers = {} } = {}) {
  const options = { method, headers: { ...headers } };
  if (json !== undefined) {
    options.body = JSON.stringify(json);
    options.headers["Content-Type"] = "application/json";
  } else if (body !== undefined) {
    options.body = body;
    options.headers["Content-Type"] = "application/octet-stream";
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, "server", `cannot reach the server (${error.message}); is huerta serve running?`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(response.status, err ? err.input : "server",
      err ? err.reason : `HTTP ${response.status}`);
  }
  return data;
}
