// A phone's talk with the companion: joining its seat (the QR code's link or a typed code), then every
// call with the phone's own session, never the table PIN (companion/web/api/phones.py).
const store = window.localStorage;
const KEY = "phoneSession";

export const phoneSession = {
  get: () => store.getItem(KEY) || "",
  set: (value) => store.setItem(KEY, value),
  forget: () => store.removeItem(KEY),
};

// A refusal: its words for the player and whether the seat is gone (the code form comes back).
export class Refused extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function send(path, { method = "GET", body } = {}) {
  const headers = { "X-Phone-Session": phoneSession.get() };
  if (body) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined, cache: "no-store" });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Refused(data.error || _("The companion did not accept that ({status}); try again.", { status: res.status }), res.status);
  return data;
}

// Joins with {token} or {code}; the session is kept on this phone from then on.
export async function join(what) {
  const data = await send("/api/phone/join", { method: "POST", body: what });
  phoneSession.set(data.session);
  return data;
}

export const mine = () => send("/api/phone");
export const enter = (action) => send("/api/phone/input", { method: "POST", body: { action } });
