// Talking to the companion: every change goes through call(), which sends this tablet's session and
// device id, turns the companion's refusals into sentences and asks for the PIN when it is needed.
import { toast } from "./toast.js";

const store = window.localStorage;

// Which tablet sent an input (the journal keeps it): made once, then kept on this tablet.
let deviceId = store.getItem("deviceId");
if (!deviceId) {
  deviceId = Math.random().toString(36).slice(2, 8);
  store.setItem("deviceId", deviceId);
}

// How this tablet's inputs are named in the game's log: the dice pad tells its own inputs from another tablet's.
export const thisDevice = `tablet:${deviceId}`;

// The session the right PIN opened, as this tablet keeps it (the PIN dialog writes it, every call
// sends it); never the PIN itself (see companion/access/sessions.py).
export const session = {
  get: () => store.getItem("session"),
  set: (value) => store.setItem("session", value),
  forget: () => store.removeItem("session"),
};

// Asks for the PIN after a 403 and resolves true once it is accepted; the PIN dialog plugs itself in
// (app.js), so this module knows no dialog.
let askPin = async () => false;
export function whenPinNeeded(ask) { askPin = ask; }

// quiet: the caller shows the error itself (next to what it is about)
export async function call(path, body, { raw = false, retry = true, method = "POST", quiet = false } = {}) {
  const headers = { "X-Table-Session": session.get() || "", "X-Device": deviceId };
  if (!raw) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: method === "GET" ? undefined : raw ? body : JSON.stringify(body || {}),
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  // an input the rules could not even read: a sentence for the players, never the field at fault
  if (data.kind === "malformed") data.error = _("The tablet sent something this game cannot read; nothing was changed. Reload the page and try again.");
  if (res.status === 403 && retry) {
    if (await askPin(data.error)) return call(path, body, { raw, retry: false, method, quiet });
    throw new Error(data.error);
  }
  if (!res.ok) {
    if (!quiet) toast(data.error || _("The companion did not accept that ({status}); try again.", { status: res.status }));
    throw new Error(data.error || _("The companion did not accept that ({status}); try again.", { status: res.status }));
  }
  return data;
}

// An input for the game; a refusal is already shown, so the caller gets undefined instead of an error.
export function submit(action) { return call("/api/input", { action }).catch(() => {}); }
