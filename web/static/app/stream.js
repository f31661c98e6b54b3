// The live view from the companion (server-sent events) and the page's offline state: the pill, the
// red banner, and every control of the table switched off while the companion cannot be reached.

const $ = (id) => document.getElementById(id);

let show = () => {};      // draws a view that just came
let redraw = () => {};    // draws the latest view again (controls back on)
let source = null;
let retryDelay = 1000;
let retryTimer = null;
let offline = false;

// The event stream: EventSource retries by itself only after some errors (never after a 503 when all
// stream slots are taken), so every error closes it and a new one is made after a growing pause.
function connect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = new EventSource("/api/events");
  window.companionStream = source;  // for a look from the console (or a test) at the live stream
  source.addEventListener("view", (e) => {
    retryDelay = 1000;
    setOffline(false);
    show(JSON.parse(e.data));
  });
  source.onerror = () => {
    source.close();
    source = null;
    setOffline(true);
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30000) * (0.8 + Math.random() * 0.4);
  };
}
window.addEventListener("online", () => { retryDelay = 1000; connect(); });

function setOffline(yes) {
  offline = yes;
  $("conn").textContent = yes ? _("reconnecting…") : _("live");
  $("conn").className = yes ? "pill warn" : "pill ok";
  $("offline").hidden = !yes;
  document.body.classList.toggle("is-offline", yes);
  if (yes) {
    for (const el of document.querySelectorAll("main button, main input, main select")) el.disabled = true;
  } else {
    redraw();
  }
}

// Starts listening: onView(view) for every view sent, again() to draw the latest one once back online.
export function listen(onView, again) {
  show = onView;
  redraw = again;
  connect();
}

// Drawing a view switches the controls on; while offline they go straight off again.
export function offAgainIfOffline() {
  if (offline) setOffline(true);
}
