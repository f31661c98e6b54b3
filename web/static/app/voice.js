// The tablet's voice, a component of the page (app.js wires it): what the companion announces, said by
// this tablet's browser (speechSynthesis) in the page's language, for a table whose Pi has no speaker or
// for a player who wants it near (docs/voice.md). Each view of the event stream carries the newest
// announcements (view.voice: {seq, say: [{kind, text, seq, version}]}), already in the page's language;
// this tablet says those of the kinds it chose. Its settings live on the
// tablet (localStorage), like the theme. Like the Pi's speaker, a new change drops what waits from older
// ones unless it lasts (a payout, the winner), and cuts off a transient sentence being said.
const KINDS = ["dice", "unsure", "turn", "ask", "options", "move", "payout", "round", "bust", "duel", "boss",
  "end", "undo", "notice"];
const LASTING = new Set(["payout", "round", "bust", "duel", "boss", "end"]);
const PRESETS = {
  quiet: ["unsure", "end", "notice"],
  essential: ["dice", "unsure", "turn", "payout", "round", "bust", "duel", "boss", "end", "notice"],
  everything: KINDS,
};
const KEY = "voice";
const synth = window.speechSynthesis || null;

const load = () => {
  let saved = {};
  try { saved = JSON.parse(window.localStorage.getItem(KEY) || "{}") || {}; } catch (e) { saved = {}; }
  const preset = saved.preset in PRESETS || saved.preset === "custom" ? saved.preset : "essential";
  const kinds = Array.isArray(saved.kinds) ? saved.kinds.filter((k) => KINDS.includes(k)) : PRESETS[preset];
  const volume = typeof saved.volume === "number" ? Math.min(1, Math.max(0, saved.volume)) : 0.8;
  return { on: saved.on === true, preset, kinds: preset === "custom" ? kinds : PRESETS[preset], volume };
};
let settings = load();
const save = () => {
  try { window.localStorage.setItem(KEY, JSON.stringify(settings)); } catch (e) { /* private mode: this visit only */ }
};

// --- hearing the stream -------------------------------------------------------------------------
let firstVersion = null; // the version of the first view this page got: older announcements are not said
let lastSeq = 0;
let waiting = [];
let current = null;

const language = () => {
  const lang = window.I18N_LANG || document.documentElement.lang || "en";
  return lang === "qps" ? "en" : lang;
};

export function hearVoice(view) {
  if (!view) return;
  const part = view.voice;
  if (firstVersion === null) {
    firstVersion = Number(view.version || 0);
    lastSeq = part ? part.seq : 0;
    return;
  }
  if (!part || part.seq <= lastSeq) return;
  const since = lastSeq;
  lastSeq = part.seq;
  if (!settings.on || !synth) return;
  // new to this page, made after it opened, of a kind it says: the newest change's announcements, and
  // the lasting ones of changes whose views this page was never shown (a slow page skips views)
  const chosen = (part.say || []).filter((a) => a.seq > since && a.version > firstVersion && a.text
    && settings.kinds.includes(a.kind) && (a.seq === part.seq || LASTING.has(a.kind)));
  if (!chosen.length) return;
  waiting = waiting.filter((a) => LASTING.has(a.kind));
  if (current && !LASTING.has(current.kind)) {
    current = null;
    synth.cancel();
  }
  waiting.push(...chosen);
  next();
}

function next() {
  if (current || !waiting.length || !synth) return;
  const said = waiting.shift();
  const utterance = new SpeechSynthesisUtterance(String(said.text));
  utterance.lang = language();
  utterance.volume = settings.volume;
  const voice = (synth.getVoices() || []).find((v) => String(v.lang || "").toLowerCase().startsWith(utterance.lang));
  if (voice) utterance.voice = voice;
  const done = () => {
    if (current !== said) return; // cut off: the next one is already on its way
    current = null;
    next();
  };
  utterance.onend = done;
  utterance.onerror = done;
  current = said;
  synth.speak(utterance);
}

// --- the settings: a section of the tablet's settings dialog --------------------------------------
const kindLabel = (kind) => ({
  dice: _("The dice as read"),
  unsure: _("A reading to check"),
  turn: _("Whose turn it is"),
  ask: _("What is asked"),
  options: _("Each option the buttons highlight"),
  move: _("What a player did"),
  payout: _("Payouts"),
  round: _("Rounds"),
  bust: _("A failed turn"),
  duel: _("A duel's winner"),
  boss: _("A new boss"),
  end: _("The end and the winner"),
  undo: _("Undo"),
  notice: _("A refused press"),
})[kind];
const presetLabel = (preset) => ({
  quiet: _("Quiet: only what needs you"),
  essential: _("Essential"),
  everything: _("Everything (play by ear)"),
  custom: _("My choice"),
})[preset];

// The Voice section of the tablet's settings dialog.
export function wireVoice() {
  const form = document.getElementById("dlg-settings").querySelector("form");
  const box = h("fieldset", "voice-settings");
  box.dataset.testid = "voice-settings";
  box.append(h("legend", "", _("Voice")));
  const on = h("input");
  on.type = "checkbox";
  on.dataset.testid = "voice-on";
  on.checked = settings.on;
  const onLabel = h("label", "option-field");
  onLabel.append(on, " ", synth ? _("Say what happens, on this tablet") : _("This browser cannot speak"));
  on.disabled = !synth;
  box.append(onLabel);
  const presets = h("div", "voice-presets");
  for (const preset of [...Object.keys(PRESETS), "custom"]) {
    const radio = h("input");
    radio.type = "radio";
    radio.name = "voice-preset";
    radio.value = preset;
    radio.dataset.testid = `voice-preset-${preset}`;
    radio.checked = settings.preset === preset;
    const label = h("label", "option-field");
    label.append(radio, " ", presetLabel(preset));
    presets.append(label);
  }
  box.append(presets);
  const kinds = h("details", "voice-kinds");
  kinds.append(h("summary", "", _("What is said")));
  const boxes = {};
  for (const kind of KINDS) {
    const check = h("input");
    check.type = "checkbox";
    check.dataset.kind = kind;
    boxes[kind] = check;
    const label = h("label", "option-field");
    label.append(check, " ", kindLabel(kind));
    kinds.append(label);
  }
  box.append(kinds);
  const volume = h("input");
  volume.type = "range";
  volume.min = "0";
  volume.max = "100";
  volume.value = String(Math.round(settings.volume * 100));
  volume.dataset.testid = "voice-volume";
  volume.setAttribute("aria-label", _("Volume"));
  const volumeLabel = h("label", "option-field");
  volumeLabel.append(_("Volume"), " ", volume);
  box.append(volumeLabel);

  const show = () => {
    for (const kind of KINDS) boxes[kind].checked = settings.kinds.includes(kind);
    for (const radio of presets.querySelectorAll("input")) radio.checked = radio.value === settings.preset;
  };
  on.addEventListener("change", () => {
    settings.on = on.checked;
    if (!on.checked && synth) { waiting = []; current = null; synth.cancel(); }
    save();
  });
  presets.addEventListener("change", (e) => {
    settings.preset = e.target.value;
    if (settings.preset in PRESETS) settings.kinds = [...PRESETS[settings.preset]];
    save();
    show();
  });
  kinds.addEventListener("change", () => {
    settings.kinds = KINDS.filter((k) => boxes[k].checked);
    settings.preset = "custom";
    save();
    show();
  });
  volume.addEventListener("input", () => { settings.volume = Number(volume.value) / 100; save(); });
  show();
  const hint = form.querySelector("p.hint");
  form.insertBefore(box, hint || form.lastElementChild);
}
