// Cincinnati board: tables A, B, C with their cards, each player's throw, money and chips, the duel.
"use strict";
(window.GameViews || (window.GameViews = {})).cincinnati = {
  title: "Cincinnati",
  options: [
    { key: "virtual_deck", type: "bool", label: "The companion turns the cards", hint: "(no physical deck needed)" },
  ],
  render(sb, el, game) {
    const h = window.h;
    const money = (v) => v.toLocaleString("en-US");
    const die = (f) => h("span", "die", String(f));

    const head = h("div", "lv-head");
    head.append(h("b", "", `Round ${sb.round} of ${sb.rounds}`),
      h("span", "muted", ` · ${sb.deck.to_reveal} cards to come · chips in the supply ${sb.supply}`));
    if (sb.throw) {
      const t = sb.throw;
      head.append(h("div", "muted", t.chip ? "Chip throws" : `Throw ${t.number} of ${t.of}`));
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

    const players = h("div", "players");
    sb.players.forEach((p, i) => {
      const card = h("div", "player" + (p.to_throw ? " current" : ""));
      card.dataset.testid = `player-${i}`;
      card.append(h("div", "name", p.name + (p.table ? ` · table ${p.table}` : p.chosen ? " · chosen" : "")));
      const dice = h("div", "roll");
      if (p.dice && p.dice.length) dice.append(...p.dice.map(die));
      else dice.append(h("span", "muted", "—"));
      card.append(dice);
      if (p.result) card.append(h("div", p.meets ? "ci-meets" : "score", p.result + (p.meets ? " ✓" : "")));
      const cash = h("div", "cash", `${money(p.money)} + ${p.chips} chips = ${money(p.score)}`);
      cash.dataset.testid = `score-${i}`;
      card.append(cash);
      if (p.duel_cards) card.append(h("div", "score", `${p.duel_cards} duel card${p.duel_cards > 1 ? "s" : ""}`));
      players.append(card);
    });

    const parts = [head, tables, players];
    if (sb.duel) {
      const d = h("div", "payout");
      d.dataset.testid = "duel";
      const duel = sb.duel;
      d.append(h("h2", "", duel.table ? `Tie-break duel for table ${duel.table}` : "Duel"));
      duel.order.forEach((seat, k) => {
        const row = h("div", "roll");
        const who = h("span", "label", sb.players[seat].name);
        row.append(who, ...(duel.dice[k] || []).map(die));
        if (duel.hands[k]) row.append(h("span", "muted", ` ${duel.hands[k]}`));
        if (seat === duel.current) row.classList.add("ci-meets");
        d.append(row);
      });
      d.append(h("div", "muted", duel.chip_throws ? "Chip throws" : `Throw ${duel.throw}`));
      parts.push(d);
    }
    if (sb.cleared && sb.cleared.length) {
      const c = h("div", "payout");
      c.append(h("h2", "", "Tables cleared this round"));
      for (const line of sb.cleared) c.append(h("div", "", line.text));
      parts.push(c);
    }
    el.replaceChildren(...parts);
  },
};
