// What a tablet left on the table needs: the screen kept awake, full screen, a theme and text size
// chosen for the room, and an optional cue when the turn passes. Settings stay on this tablet only.
"use strict";
(function () {
  const store = window.localStorage;
  const $ = (id) => document.getElementById(id);
  const settings = {
    theme: store.getItem("theme") || "dark",
    textsize: store.getItem("textsize") || "normal",
    sound: store.getItem("cue-sound") === "1",
    vibrate: store.getItem("cue-vibrate") === "1",
  };

  function apply() {
    document.documentElement.dataset.theme = settings.theme;
    document.documentElement.dataset.textsize = settings.textsize;
    const meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.content = settings.theme === "light" ? "#f4f1e6" : "#0d3b2e";
  }
  apply();

  // ---- the screen stays on while a game is open (Screen Wake Lock; re-taken when the tab is back)
  let lock = null;
  let wanted = false;
  async function takeLock() {
    if (!wanted || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; showWake(); });
    } catch (err) {
      lock = null;  // refused (battery saver, no user gesture yet): tried again on the next tap
    }
    showWake();
  }
  function showWake() {
    const el = $("wake-state");
    if (!el) return;
    if (!("wakeLock" in navigator)) el.textContent = _("This browser cannot keep the screen awake; set the tablet's sleep timer instead.");
    else el.textContent = lock ? _("The screen is being kept awake now.") : "";
  }
  function keepAwake(on) {
    wanted = on;
    if (on) takeLock();
    else if (lock) { lock.release().catch(() => {}); lock = null; }
  }
  document.addEventListener("visibilitychange", takeLock);
  document.addEventListener("pointerup", takeLock);

  // ---- full screen
  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  }

  // ---- turn cue: a short tone (Web Audio, nothing to download) and/or a vibration
  let audio = null;
  function cue() {
    if (settings.sound) {
      try {
        audio = audio || new (window.AudioContext || window.webkitAudioContext)();
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.2, audio.currentTime);
        gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
        osc.connect(gain).connect(audio.destination);
        osc.start();
        osc.stop(audio.currentTime + 0.35);
      } catch (err) { /* no audio on this tablet */ }
    }
    if (settings.vibrate && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  }
  let lastTurn = null;
  function turn(key) {
    if (lastTurn !== null && key !== null && key !== lastTurn) cue();
    lastTurn = key;
  }

  function openSettings() {
    const dlg = $("dlg-settings");
    for (const r of dlg.querySelectorAll('input[name="theme"]')) r.checked = r.value === settings.theme;
    for (const r of dlg.querySelectorAll('input[name="textsize"]')) r.checked = r.value === settings.textsize;
    $("set-sound").checked = settings.sound;
    $("set-vibrate").checked = settings.vibrate;
    showWake();
    dlg.showModal();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("btn-fullscreen").onclick = toggleFullscreen;
    $("btn-fullscreen").hidden = !document.documentElement.requestFullscreen;
    $("btn-settings").onclick = openSettings;
    const dlg = $("dlg-settings");
    dlg.addEventListener("change", (e) => {
      const t = e.target;
      if (t.name === "theme" || t.name === "textsize") { settings[t.name] = t.value; store.setItem(t.name, t.value); }
      if (t.id === "set-sound") { settings.sound = t.checked; store.setItem("cue-sound", t.checked ? "1" : "0"); if (t.checked) cue(); }
      if (t.id === "set-vibrate") { settings.vibrate = t.checked; store.setItem("cue-vibrate", t.checked ? "1" : "0"); }
      apply();
    });
  });

  window.Tablet = { keepAwake, turn, settings };
})();
