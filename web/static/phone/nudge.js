// "Your turn": a vibration and, if the player switched it on, a short chime, once each time the
// player is asked to act (not again for the same question while the page redraws).
const store = window.localStorage;
let audio = null;
let lastAsked = null;

export function wireSound(box) {
  box.checked = store.getItem("phoneChime") === "on";
  box.addEventListener("change", () => {
    store.setItem("phoneChime", box.checked ? "on" : "off");
    if (box.checked) chime();  // a tap lets the browser play sound from now on
  });
}

function chime() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch (e) { /* no sound here: the vibration and the big prompt still say it */ }
}

// ``asked``: a key of the question now put to this player (null when nothing is asked of them).
export function nudge(asked) {
  if (asked === lastAsked) return false;
  lastAsked = asked;
  if (asked === null) return false;
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  if (store.getItem("phoneChime") === "on") chime();
  document.body.dataset.nudged = String(Number(document.body.dataset.nudged || 0) + 1);  // tests count the nudges
  return true;
}
