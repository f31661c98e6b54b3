// "Teach the dice": the guided calibration. While it runs the camera's readings come here instead of
// to the game; the table corrects each one (tap a die, then its face) and confirms it, and the companion
// learns those dice. The state arrives with every view (status.calibration), like everything else.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SETS = { plain: [1, 2, 3, 4, 5, 6], heckmeck: [1, 2, 3, 4, 5, "worm"] };
  const CROP = 56; // px: each die's button shows the die as the camera saw it
  const LOW = 0.98; // below this share of the held-back dice read right, the panel says what helps
  let status = {};
  let faces = []; // the table's faces for the shown reading, corrections included
  let number = null; // which reading they belong to
  let selected = 0; // the die the face buttons set

  async function send(path, body, method = "POST") {
    $("teach-error").textContent = "";
    try {
      return await window.callApi(path, body, { method, quiet: true });
    } catch (e) {
      $("teach-error").textContent = e.message; // beside the reading it is about
      return null;
    }
  }

  function render(s) {
    status = s || {};
    const button = $("btn-teach");
    button.hidden = !status.has_camera;
    button.textContent = status.active ? _("Teaching the dice…") : _("Teach the dice");
    button.classList.toggle("primary", !!status.active);
    if ($("dlg-teach").open) draw();
  }

  function draw() {
    const active = !!status.active;
    $("teach-setup").hidden = active;
    $("teach-run").hidden = !active;
    $("teach-done").hidden = !active;
    const own = status.own_model || {};
    const network = own.retraining ? " " + _("It is retraining its network on them now.")
      : (own.own_model ? " " + _("Its network is retrained on them.") : "");
    $("teach-learnt").textContent = (status.learnt
      ? ngettext("The reader keeps {n} picture of this table's dice.", "The reader keeps {n} pictures of this table's dice.", status.learnt)
      : (status.saved ? _("The reader has learnt this table's dice.") : _("The reader has not learnt this table's dice yet.")))
      + network;
    $("teach-forget").disabled = !status.saved && !status.learnt;
    drawEmpty(status.empty || {});
    drawAccuracy(status.detector || {});
    if (!active) return;
    const reading = status.reading;
    if (!reading) { faces = []; number = null; }
    else if (reading.number !== number) {
      number = reading.number;
      faces = reading.dice.map((d) => d.value);
      selected = 0;
    }
    drawReading(reading);
    drawProgress();
    $("teach-roll").hidden = !status.can_roll;
  }

  function drawReading(reading) {
    const photo = $("teach-photo");
    photo.hidden = !reading;
    const url = reading ? `/api/camera/frame.jpg?reading=${reading.number}` : "";
    if (reading && photo.dataset.src !== url) { photo.src = url; photo.dataset.src = url; }
    $("teach-note").textContent = !reading
      ? (status.can_roll ? _("Press Roll to throw the simulated dice.") : _("Roll the whole set into the tray."))
      : (reading.note || _("Tap a die that was read wrong, then its face. Then confirm."));
    $("teach-dice").replaceChildren(...(reading ? reading.dice : []).map((d, i) => dieButton(d, i, reading, url)));
    $("teach-faces").replaceChildren(...(reading ? status.faces : []).map((f) => {
      const b = window.h("button", "face");
      b.type = "button";
      b.dataset.face = f;
      b.append(window.dieEl(f));
      b.onclick = () => {
        faces[selected] = f;
        selected = (selected + 1) % faces.length;
        draw();
      };
      return b;
    }));
    $("teach-confirm").disabled = !reading || !!reading.note;
  }

  function dieButton(d, i, reading, url) {
    const b = window.h("button", "teach-die" + (i === selected ? " selected" : ""));
    b.type = "button";
    b.dataset.index = i;
    b.dataset.face = faces[i];
    b.title = _("read as {value} ({percent}% sure)", { value: d.value, percent: Math.round(100 * d.confidence) });
    const [x0, y0, x1, y1] = d.box;
    const [w, h] = reading.size;
    const scale = CROP / Math.max(x1 - x0, y1 - y0, 1);
    const crop = window.h("span", "teach-crop");
    crop.style.backgroundImage = `url("${url}")`;
    crop.style.backgroundSize = `${w * scale}px ${h * scale}px`;
    crop.style.backgroundPosition = `${-x0 * scale}px ${-y0 * scale}px`;
    const corrected = String(faces[i]) !== String(d.value);
    b.classList.toggle("corrected", corrected);
    b.append(crop, window.dieEl(faces[i], corrected ? "corrected" : ""));
    b.onclick = () => { selected = i; draw(); };
    return b;
  }

  // The empty tray: the picture every reading is compared with, so a die the reader alone would miss
  // still shows. Captured here, before rolling (the dice out of the tray).
  function drawEmpty(empty) {
    const state = empty.state || "none";
    const taken = empty.taken ? new Date(empty.taken * 1000).toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "short", timeStyle: "short" }) : "";
    const text = {
      none: _("Take the dice out of the tray and capture it empty: the reader then compares every roll with it and finds dice it would miss."),
      ok: _("The reader compares every roll with the empty tray captured {time}.", { time: taken }),
      stale: _("The tray looks different from its empty picture (light or camera changed), so the picture is ignored: take the dice out and capture it again."),
      damaged: _("The empty tray's picture on the data disk is damaged and is not used: capture it again."),
    }[state] || "";
    const line = $("teach-empty-state");
    line.textContent = text;
    line.dataset.state = state;
    line.classList.toggle("warning", state === "stale" || state === "damaged");
    $("teach-capture").textContent = state === "none" ? _("Capture the empty tray") : _("Capture the empty tray again");
  }

  // How well the reader reads this table: measured by the teaching on the newest confirmed rolls, which
  // it held back from what it learnt, read as the table reads now (the detector and the faces' depth it
  // kept); how it tells the faces apart when it went deeper; and what helps when that is low.
  function drawAccuracy(d) {
    const line = $("teach-accuracy");
    const advice = [];
    if (d.teaching) line.textContent = _("The reader is learning to find these dice on this tray now, in the background (a few minutes).");
    else if (d.dice) {
      const depth = { 2: _("It reads their faces with its network's last layers refitted on these rolls."),
        3: _("It tells their faces apart by their marks, learnt from these rolls.") }[d.depth];
      line.textContent = ngettext("Here it reads {right} of {n} die right, on rolls it did not learn from.",
        "Here it reads {right} of {n} dice right, on rolls it did not learn from.", d.dice, { right: d.right })
        + (depth ? " " + depth : "");
      if (d.right < LOW * d.dice) {
        const faces = [...new Set((d.confused || []).map((c) => c[0]))];
        if (faces.length) advice.push(_("Teach a few more rolls in which {faces} show, and correct them.", { faces: faces.join(", ") }));
        if (d.missed) advice.push(ngettext("It missed {n} die: more light on the tray, or the camera higher so that the whole tray is in view, helps it find them.",
          "It missed {n} dice: more light on the tray, or the camera higher so that the whole tray is in view, helps it find them.", d.missed));
        if (d.extra) advice.push(ngettext("It saw {n} die that was not there: clear the tray of other things and capture the empty tray.",
          "It saw {n} dice that were not there: clear the tray of other things and capture the empty tray.", d.extra));
      }
    } else line.textContent = "";
    line.dataset.low = d.dice && d.right < LOW * d.dice ? "1" : "";
    $("teach-advice").textContent = advice.join(" ");
  }

  function drawProgress() {
    const s = status;
    const rolls = ngettext("{n} roll", "{n} rolls", s.rolls);
    $("teach-progress").textContent = rolls + " · " + ngettext("{n} die learnt", "{n} dice learnt", s.dice);
    $("teach-seen").replaceChildren(...s.faces.map((f) => {
      const seen = s.seen[String(f)] || 0;
      const chip = window.h("span", "teach-seen-face" + (seen >= s.suggested_per_face ? " enough" : ""));
      chip.dataset.face = f;
      chip.append(window.dieEl(f), window.h("span", "", `×${seen}`));
      return chip;
    }));
    // The empty tray comes first: the reader compares every roll with it, and learns to find the
    // table's dice on it when the calibration is done.
    const emptyFirst = s.rolls === 0 && (s.empty || {}).state !== "ok";
    $("teach-capture").classList.toggle("primary", emptyFirst);
    $("teach-capture").classList.toggle("secondary", !emptyFirst);
    $("teach-hint").textContent = emptyFirst
      ? _("First take every die out of the tray and press Capture the empty tray: the reader learns this tray from it. Then roll.")
      : s.enough
      ? _("Every face has been seen a few times: the reader knows these dice. Press Done.")
      : _("Roll the whole set and confirm each reading, about {rolls} times, until every face has been seen {times} times.", { rolls: s.suggested_rolls, times: s.suggested_per_face });
  }

  function open() {
    $("teach-error").textContent = "";
    draw();
    $("dlg-teach").showModal();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("btn-teach").onclick = open;
    $("teach-start").onclick = () => {
      const set = document.querySelector('input[name="teach-set"]:checked').value;
      const body = { faces: SETS[set] };
      const count = $("teach-count").value.trim();
      if (count) body.count = Number(count);
      send("/api/calibration", body);
    };
    $("teach-roll").onclick = () => send("/api/calibration/roll");
    $("teach-capture").onclick = () => send("/api/calibration/empty");
    $("teach-confirm").onclick = () => send("/api/calibration/confirm", { faces, reading: number });
    $("teach-done").onclick = async () => {
      if (await send("/api/calibration", null, "DELETE")) $("dlg-teach").close();
    };
    $("teach-forget").onclick = () => {
      if (!window.confirm(_("Forget everything the reader learnt of this table's dice?\nDo this when a new set of dice comes to the table."))) return;
      send("/api/profile", null, "DELETE");
    };
  });

  window.Calibration = { render };
})();
