// Las Vegas (Dorn) board: six casinos with their banknotes and dice, the roll; money in the score strip.
"use strict";
(window.GameViews || (window.GameViews = {})).lasvegas = {
  title: "Las Vegas",
  options: [
    { key: "neutral_dice", type: "bool", label: _("Neutral white dice"), hint: _("(2-4 players)") },
    { key: "virtual_deck", type: "bool", label: _("The companion draws the banknotes"), hint: _("(no physical deck needed)") },
    { key: "money_open", type: "bool", label: _("Show everyone's money"), hint: _("(the rules keep it face down)") },
  ],
  colours: ["red", "blue", "green", "yellow", "black"],
  colourOption: true,
  scoreName: _("Money"),
  formatScore: (v) => window.formatMoney(v),
  axisSize: 84,  // "$600,000" beside the chart
  peeking: new Map(),  // seat -> its own money, fetched with the PIN (never in the shared view)
  cardLabel: (v) => window.formatMoney(v),
  scores(sb, g) {
    const self = this;
    return sb.players.map((p, i) => {
      const own = sb.money_hidden ? self.peeking.get(i) : p;
      const shown = !!own;
      const dice = sb.neutral_dice
        ? _("{own} dice + {white} white left", { own: p.dice_left, white: p.white_left })
        : ngettext("{n} die left", "{n} dice left", p.dice_left);
      const row = {
        values: shown
          ? [{ text: `${own.money / 1000}k`, unit: ngettext("{n} note", "{n} notes", p.note_count), testid: `money-${i}` }]
          : [{ text: String(p.note_count), unit: ngettext("note", "notes", p.note_count), testid: `money-${i}` }],
        detail: (p.start_player ? _("★ start player · ") : "") + dice,
      };
      if (!shown) {
        const peek = window.h("button", "secondary peek", _("Peek"));
        peek.type = "button";
        peek.dataset.testid = `peek-${i}`;
        peek.onclick = async () => {
          const seen = await window.callApi(`/api/seats/${i}/peek`, {}).catch(() => null);
          if (!seen || !seen.private) return;
          self.peeking.set(i, seen.private);
          window.rerender();
          setTimeout(() => { self.peeking.delete(i); window.rerender(); }, 3000);
        };
        row.extra = peek;
      }
      return row;
    });
  },
  rank(sb) {
    return sb.players.map((p, seat) => ({ seat, p }))
      .sort((a, b) => b.p.money - a.p.money)
      .map(({ seat, p }, i, all) => ({
        seat,
        key: p.money,
        main: window.formatMoney(p.money),
        tiebreak: all.some((o) => o.seat !== seat && o.p.money === p.money) ? _("tied: they share the place") : "",
      }));
  },
  // the round's payout: a card that stays until the table dismisses it
  summary(sb) {
    if (!sb.payout) return null;
    const h = window.h;
    return {
      key: `payout:${sb.payout.round}`,
      title: _("Round {n} paid out", { n: sb.payout.round }),
      build: () => {
        const table = h("table", "summary-table");
        const head = h("tr");
        head.append(h("th", "", _("Casino")), h("th", "", _("Paid")), h("th", "", _("Tied, knocked out")));
        table.append(head);
        for (const c of sb.payout.casinos) {
          const tr = h("tr");
          tr.append(h("th", "", String(c.casino)));
          const paid = h("td");
          const got = c.paid.filter((p) => p.note !== null);
          if (!got.length) paid.append(h("span", "muted", "—"));
          for (const p of got) {
            const line = h("div", "paid-line");
            line.append(h("span", `die mini ${p.colour}`, ""), ` ${p.name}: ${window.formatMoney(p.note)}`);
            paid.append(line);
          }
          const ties = h("td");
          if (!c.ties.length) ties.append(h("span", "muted", "—"));
          for (const t of c.ties) {
            ties.append(h("div", "", _("{names} (with {n} each)", { names: t.players.map((p) => p.name).join(", "), n: t.dice })));
          }
          tr.append(paid, ties);
          table.append(tr);
        }
        return [table];
      },
    };
  },
  render(sb, el, game) {
    const h = window.h;
    const head = h("div", "lv-head");
    head.append(h("b", "", _("Round {n} of {of}", { n: sb.round, of: sb.rounds })),
      h("span", "muted", " · " + _("deck: {n} · under the deck: {under}", {
        n: ngettext("{n} note", "{n} notes", sb.deck.count), under: sb.under.count })));

    const casinos = h("div", "casinos");
    casinos.dataset.testid = "casinos";
    const placing = sb.roll ? new Set(sb.roll.by_face.map((p) => p.face)) : new Set();
    for (const c of sb.casinos) {
      const box = h("div", "casino" + (placing.has(c.number) ? " can-place" : ""));
      box.dataset.testid = `casino-${c.number}`;
      box.append(h("div", "casino-number", String(c.number)));
      const notes = h("div", "notes");
      for (const n of c.notes) {
        const note = h("span", "note", window.formatMoney(n));
        notes.append(note);
      }
      box.append(notes);
      const dice = h("div", "casino-dice");
      for (const d of c.dice) {
        // the count in words beside a plain swatch: a number drawn on a die read as a face ("a four")
        const name = d.colour === "white" ? _("white") : d.name.slice(0, 3);
        const who = h("span", "casino-die");
        who.dataset.testid = "casino-die";
        who.setAttribute("aria-label", ngettext("{name}: {n} die", "{name}: {n} dice", d.count, { name: d.name }));
        who.append(h("span", `die mini ${d.colour}`, ""), h("span", "die-owner", name),
          h("span", "die-count", ngettext("{n} die", "{n} dice", d.count)));
        dice.append(who);
      }
      box.append(dice);
      casinos.append(box);
    }

    const parts = [head, casinos];
    if (sb.roll) {
      const roll = h("div", "roll");
      roll.append(h("span", "label", _("Roll")));
      for (const d of sb.roll.dice) roll.append(h("span", `die ${d.colour}`, String(d.face)));
      parts.push(roll);
    }
    el.replaceChildren(...parts);
  },
};
