// Talking to the server: JSON in and out; a refusal becomes an ApiError carrying the input and
// the reason the server named, which the page shows as is. Every request that changes something
// is sent as application/json with the server's token (X-Huerta-Token, read from /api/meta):
// the server refuses any other (see web/guard.py), so no other web site can call it.

let token = "";

export function setToken(value) {
  token = value || "";
}

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
  if (method !== "GET") {
    // a record file is JSON too: sent as it is, checked by the server
    options.body = json !== undefined ? JSON.stringify(json) : body;
    options.headers["Content-Type"] = "application/json";
    options.headers["X-Huerta-Token"] = token;
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
