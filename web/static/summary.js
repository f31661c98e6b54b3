// Round summaries that stay until the table dismisses them, and the results at the end of a game:
// ranking with its tie-breaks, a table of the rounds, a chart of the scores (uPlot), the game's length.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const store = window.localStorage;
  const h = (...a) => window.h(...a);
  let summaryOf = null; // the summary the button reopens: { key, title, build }
  let resultsShownFor = null;
  let chart = null;

  function seen(key) { return store.getItem(`seen:${key}`) === "1"; }
  function markSeen(key) { store.setItem(`seen:${key}`, "1"); }

  function openSummary(s) {
    const dlg = $("dlg-summary");
    $("summary-title").textContent = s.title;
    $("summary-body").replaceChildren(...s.build());
    dlg.dataset.key = s.key;
    if (!dlg.open) dlg.showModal();
  }

  function update(g) {
    const gv = window.GameViews[g.name] || {};
    const s = gv.summary ? gv.summary(g.scoreboard, g) : null;
    summaryOf = s ? { ...s, key: `${g.id}:${s.key}` } : null;
    $("summary-bar").hidden = !summaryOf && !g.outcome;
    $("btn-summary").hidden = !summaryOf;
    $("btn-results").hidden = !g.outcome;
    const dlg = $("dlg-summary");
    const otherOpen = [...document.querySelectorAll("dialog[open]")].some((d) => d !== dlg);
    if (dlg.open && (!summaryOf || g.outcome)) {
      dlg.close();  // an undo took the round back, or the results take its place
    } else if (summaryOf && dlg.open) {
      if (dlg.dataset.key !== summaryOf.key) markSeen(dlg.dataset.key);  // a newer round replaces it
      openSummary(summaryOf);
    } else if (summaryOf && !seen(summaryOf.key) && !g.outcome && !otherOpen) {
      openSummary(summaryOf);
    }
    if (g.outcome && resultsShownFor !== g.id && !seen(`${g.id}:results`) && !otherOpen) {
      resultsShownFor = g.id;
      results(g);
    }
    if (!g.outcome && $("dlg-end").open) $("dlg-end").close();
  }

  // ---- the end of a game -------------------------------------------------------------------
  function minutes(a, b) {
    const ms = Date.parse(b) - Date.parse(a);
    if (!(ms >= 0)) return "";
    const m = Math.round(ms / 60000);
    if (m < 1) return _("The game took less than a minute.");
    if (m < 60) return ngettext("The game took {n} minute.", "The game took {n} minutes.", m);
    const hours = Math.floor(m / 60);
    return _("The game took {h} h {m} min.", { h: hours, m: m % 60 });
  }

  async function results(g) {
    const gv = window.GameViews[g.name] || {};
    const colours = window.seatColours(g);
    const marks = window.initials(g.players);
    $("end-text").textContent = g.outcome ? g.outcome.text : "";
    const ranking = gv.rank ? gv.rank(g.scoreboard, g) : g.players.map((_n, seat) => ({ seat, main: "" }));
    const winners = new Set(g.outcome.winners);
    let place = 0;
    let last = null;
    $("end-ranking").replaceChildren(...ranking.map((r, i) => {
      if (r.key === undefined || r.key !== last) place = i + 1;
      last = r.key;
      const li = h("li", "rank" + (winners.has(r.seat) ? " winner" : ""));
      li.dataset.testid = `rank-${i}`;
      li.append(h("span", "place", String(place)), window.badge(colours[r.seat], marks[r.seat]),
        h("span", "rank-name", g.players[r.seat]), h("span", "rank-main", r.main));
      if (r.tiebreak) li.append(h("span", "rank-tiebreak", r.tiebreak));
      return li;
    }));
    finalPayout(g, gv);
    $("end-length").textContent = "";
    $("end-chart").replaceChildren();
    $("end-rounds").replaceChildren();
    const dlg = $("dlg-end");
    if (!dlg.open) dlg.showModal();
    dlg.onclose = () => markSeen(`${g.id}:results`);
    if (window.renderNightLine) window.renderNightLine(g.id).catch(() => {});
    let story;
    try {
      story = await (await fetch(`/api/games/${g.id}/history`)).json();
    } catch (e) { return; }
    $("end-length").textContent = minutes(story.started, story.ended);
    drawRounds(g, story, gv);
    drawChart(g, story, colours, gv);
  }

  // The last round's payout (Las Vegas) or the End-of-Game payout (Lords of Vegas) decided the game:
  // its summary never opened on its own, since the results take its place.
  function finalPayout(g, gv) {
    const box = $("end-final");
    const s = gv.summary ? gv.summary(g.scoreboard, g) : null;
    box.hidden = !s;
    if (!s) { box.replaceChildren(); return; }
    box.replaceChildren(h("h3", "", s.title), ...s.build());
  }

  function drawRounds(g, story, gv) {
    const table = $("end-rounds");
    const head = h("tr");
    head.append(h("th", "", gv.roundName ? gv.roundName : _("Round")), ...g.players.map((n) => h("th", "", n)));
    const fmt = gv.formatScore || ((v) => String(v));
    const rows = story.rounds.map((r) => {
      const tr = h("tr");
      tr.append(h("th", "", String(r.round)), ...r.scores.map((v) => h("td", "", fmt(v))));
      return tr;
    });
    const thead = h("thead");
    thead.append(head);
    const tbody = h("tbody");
    tbody.append(...rows);
    table.replaceChildren(thead, tbody);
  }

  const CSS_COLOUR = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#c9a800", black: "#222",
    white: "#9e9e9e", purple: "#7e57c2", orange: "#fb8c00" };
  const DASH = [[], [10, 5], [2, 4], [12, 4, 2, 4], [6, 6], [1, 3], [16, 6]];

  function drawChart(g, story, colours, gv) {
    const box = $("end-chart");
    if (chart) { chart.destroy(); chart = null; }
    // one point per round, as the table beside it: players count rounds, not inputs
    if (!window.uPlot || story.rounds.length < 2) return;
    const xs = story.rounds.map((r) => r.round);
    const data = [xs, ...g.players.map((_n, i) => story.rounds.map((r) => r.scores[i]))];
    const whole = (fmt) => (u, vals) => vals.map((v) => (Number.isInteger(v) ? fmt(v) : ""));  // no half worms
    const width = Math.max(280, Math.min(box.clientWidth || box.parentElement.clientWidth || 600, 900));
    const axis = { stroke: "#1d1d1d", grid: { stroke: "rgba(0,0,0,0.12)" }, ticks: { stroke: "rgba(0,0,0,0.3)" } };  // on the cream dialog
    chart = new window.uPlot({
      width,
      height: 200,
      // the score's name (with its unit) in the title: on the rotated axis a long one was cut off
      title: `${_("Scores over the game")} · ${gv.scoreName || _("Score")}`,
      legend: { live: false },  // the players' names and line styles; values on hover mean nothing on a tablet
      scales: { x: { time: false } },
      axes: [{ ...axis, label: gv.roundName || _("Round"), values: whole(String) },
        { ...axis, size: gv.axisSize || 60, values: whole((v) => (gv.formatScore ? gv.formatScore(v) : window.formatNumber(v))) }],
      series: [
        { label: gv.roundName || _("Round") },
        ...g.players.map((n, i) => ({
          label: n, stroke: CSS_COLOUR[colours[i]] || "#888", width: 3, dash: DASH[i % DASH.length],
        })),
      ],
    }, data, box);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("btn-summary").onclick = () => { if (summaryOf) openSummary(summaryOf); };
    $("btn-results").onclick = () => { const g = window.currentGame && window.currentGame(); if (g) results(g); };
    $("dlg-summary").addEventListener("close", () => { if ($("dlg-summary").dataset.key) markSeen($("dlg-summary").dataset.key); });
  });

  window.Summary = { update, results, chart: () => chart };  // the chart for the tests: its axes are drawn on a canvas
})();
