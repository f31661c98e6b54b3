// A short message over everything for five seconds: a refusal, a notice from the table, a PIN problem.

let timer = null;

export function toast(text) {
  const el = document.getElementById("toast");
  // An open dialog sits in the top layer, above everything else: the toast goes inside it to be seen.
  const host = document.querySelector("dialog[open]") || document.body;
  if (el.parentElement !== host) host.append(el);
  el.textContent = text;
  el.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { el.hidden = true; }, 5000);
}
