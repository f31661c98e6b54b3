// Cincinnati board: tables A, B, C with their cards, each player's throw, the duel; scores in the strip.
"use strict";
(function () {
  const MONEY = [35000, 30000, 25000, 20000, 15000];
  // the score strip's 48 px digits in thousands (six players side by side); everywhere else formatMoney
  const k = (v) => `${v / 1000}k`;
  const money = (v) => window.formatMoney(v);
  const standing = (p) => [p.score, ...MONEY.map((v) => p.cards.filter((c) => c === v).length)];
  // the money cards that break a tie on money, biggest first ("1 × $35,000, 2 × $20,000"), or that none can
  const tieBreak = (s) => {
    const held = MONEY.map((v, i) => [v, s[i + 1]]).filter(([, n]) => n > 0);
    if (!held.length) return _("tie on money; no money cards to break it");
    return _("tie on money; biggest cards: {cards}", { cards: held.map(([v, n]) => `${n} × ${money(v)}`).join(", ") });
  };
  const cmp = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i] - a[i]; return 0; };

  (window.GameViews || (window.GameViews = {})).cincinnati = {
    title: "Cincinnati",
    options: [
      { key: "virtual_deck", type: "bool", label: _("The companion turns the cards"), hint: _("(no physical deck needed)") },
    ],
    colours: ["red", "blue", "green", "yellow", "purple", "orange", "black", "white"],
    scoreName: _("Money with chips"),
    formatScore: (v) => money(v),
    axisSize: 84,  // "$600,000" beside the chart
    cardLabel: (v) => (typeof v === "number" ? money(v) : v === "duel" ? _("Duel") : _("2 chips")),
    scores(sb) {
      return sb.players.map((p, i) => ({
        values: [{ text: k(p.score), unit: ngettext("with {n} chip", "with {n} chips", p.chips), testid: `score-${i}` }],
        detail: [
          p.table ? _("at table {t}", { t: p.table }) : p.chosen ? _("has chosen") : "",
          p.duel_cards ? ngettext("{n} duel card", "{n} duel cards", p.duel_cards) : "",
        ].filter(Boolean).join(" · "),
      }));
    },
    // money with chips; a tie goes to whoever holds more of the biggest money cards
    rank(sb) {
      return sb.players.map((p, seat) => ({ seat, p, s: standing(p) }))
        .sort((a, b) => cmp(a.s, b.s))
        .map(({ seat, p, s }, i, all) => {
          const tied = all.some((o) => o.seat !== seat && o.p.score === p.score);
          return {
            seat,
            key: s.join(":"),
            main: money(p.score),
            tiebreak: tied ? tieBreak(s) : "",
          };
        });
    },
    summary(sb) {
      if (!sb.cleared || !sb.cleared.length) return null;
      const h = window.h;
      return {
        key: `cleared:${sb.cleared_round}:${sb.cleared.length}`,
        title: _("Round {n}: what each table paid", { n: sb.cleared_round }),
        build: () => sb.cleared.map((c) => h("div", "summary-line", c.text)),
      };
    },
    render(sb, el) {
      const h = window.h;
      const die = (f) => h("span", "die", String(f));

      const head = h("div", "lv-head");
      head.append(h("b", "", _("Round {n} of {of}", { n: sb.round, of: sb.rounds })),
        h("span", "muted", " · " + ngettext("{n} card to come", "{n} cards to come", sb.deck.to_reveal)
          + " · " + ngettext("{n} chip in the supply", "{n} chips in the supply", sb.supply)));
      if (sb.throw) {
        const t = sb.throw;
        head.append(h("span", "muted", " · " + (t.chip ? _("Chip throws") : _("Throw {n} of {of}", { n: t.number, of: t.of }))));
      }

      const tables = h("div", "ci-tables");
      tables.dataset.testid = "tables";
      for (const t of sb.tables) {
        const box = h("div", "ci-table");
        box.dataset.testid = `table-${t.table}`;
        box.append(h("div", "casino-number", t.table), h("div", "muted", t.name));
        const cards = h("div", "notes");
        for (const label of t.labels) cards.append(h("span", "note", label));
        box.append(cards);
        if (t.players && t.players.length) {
          box.append(h("div", "ci-at", t.players.map((i) => sb.players[i].name).join(", ")));
        }
        tables.append(box);
      }

      const throws = h("div", "ci-throws");
      sb.players.forEach((p, i) => {
        const row = h("div", "ci-throw" + (p.to_throw ? " current" : ""));
        row.dataset.testid = `player-${i}`;
        row.append(h("span", "ci-name", p.name));
        const dice = h("span", "roll");
        if (p.dice && p.dice.length) dice.append(...p.dice.map(die));
        else dice.append(h("span", "muted", "—"));
        row.append(dice);
        if (p.result) row.append(h("span", p.meets ? "ci-meets" : "muted", p.result + (p.meets ? " ✓" : "")));
        throws.append(row);
      });

      const parts = [head, tables, throws];
      if (sb.duel) {
        const d = h("div", "payout");
        d.dataset.testid = "duel";
        const duel = sb.duel;
        d.append(h("h2", "", duel.table ? _("Tie-break duel for table {t}", { t: duel.table }) : _("Duel")));
        duel.order.forEach((seat, n) => {
          const row = h("div", "roll");
          row.append(h("span", "label", sb.players[seat].name), ...(duel.dice[n] || []).map(die));
          if (duel.hands[n]) row.append(h("span", "muted", ` ${duel.hands[n]}`));
          if (seat === duel.current) row.classList.add("ci-meets");
          d.append(row);
        });
        d.append(h("div", "muted", duel.chip_throws ? _("Chip throws") : _("Throw {n}", { n: duel.throw })));
        parts.push(d);
      }
      el.replaceChildren(...parts);
    },
  };
})();
