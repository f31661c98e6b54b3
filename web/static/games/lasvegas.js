// Las Vegas (Dorn) board: six casinos with their banknotes and dice, the players, the deck, the payout.
"use strict";
(window.GameViews || (window.GameViews = {})).lasvegas = {
  title: "Las Vegas",
  options: [
    { key: "neutral_dice", type: "bool", label: "Neutral white dice", hint: "(2-4 players)" },
    { key: "virtual_deck", type: "bool", label: "The companion draws the banknotes", hint: "(no physical deck needed)" },
    { key: "money_open", type: "bool", label: "Show everyone's money", hint: "(the rules keep it face down)" },
  ],
  peeking: new Set(),
  render(sb, el, game) {
    const h = window.h;
    const money = (v) => v.toLocaleString("en-US");
    const self = this;

    const head = h("div", "lv-head");
    head.append(h("b", "", `Round ${sb.round} of ${sb.rounds}`),
      h("span", "muted", ` · deck ${sb.deck.count} notes · under the deck ${sb.under.count}`));

    const casinos = h("div", "casinos");
    casinos.dataset.testid = "casinos";
    for (const c of sb.casinos) {
      const box = h("div", "casino");
      box.dataset.testid = `casino-${c.number}`;
      box.append(h("div", "casino-number", String(c.number)));
      const notes = h("div", "notes");
      for (const n of c.notes) {
        const note = h("span", "note", `${n / 1000}k`);
        note.title = money(n);
        notes.append(note);
      }
      box.append(notes);
      const dice = h("div", "casino-dice");
      for (const d of c.dice) {
        const chip = h("span", `die ${d.colour}`, String(d.count));
        chip.title = `${d.name}: ${d.count} dice`;
        dice.append(chip);
      }
      box.append(dice);
      casinos.append(box);
    }

    const roll = h("div", "roll");
    if (sb.roll) {
      roll.append(h("span", "label", "Roll"));
      for (const d of sb.roll.dice) roll.append(h("span", `die ${d.colour}`, String(d.face)));
    }

    const players = h("div", "players");
    sb.players.forEach((p, i) => {
      const card = h("div", "player" + (p.to_play ? " current" : ""));
      card.dataset.testid = `player-${i}`;
      const name = h("div", "name");
      name.append(h("span", `die ${p.colour} mini`, ""), ` ${p.name}${p.start_player ? " ★" : ""}`);
      card.append(name);
      card.append(h("div", "score", `${p.dice_left} dice` + (sb.neutral_dice ? ` + ${p.white_left} white` : "")));
      const cash = h("div", "cash");
      cash.dataset.testid = `money-${i}`;
      if (!sb.money_hidden || self.peeking.has(i)) {
        cash.textContent = `${money(p.money)} (${p.note_count} notes)`;
      } else {
        cash.textContent = `${p.note_count} notes`;
        const peek = h("button", "secondary peek", "Peek");
        peek.type = "button";
        peek.onclick = () => {
          self.peeking.add(i);
          self.render(sb, el, game);
          setTimeout(() => { self.peeking.delete(i); self.render(sb, el, game); }, 3000);
        };
        cash.append(" ", peek);
      }
      card.append(cash);
      players.append(card);
    });

    const parts = [head, casinos, roll, players];
    if (sb.payout) {
      const pay = h("div", "payout");
      pay.dataset.testid = "payout";
      pay.append(h("h2", "", `Payout, round ${sb.payout.round}`));
      for (const line of sb.payout.lines) pay.append(h("div", "", line));
      parts.push(pay);
    }
    el.replaceChildren(...parts);
  },
};
