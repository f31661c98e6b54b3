// Lords of Vegas board: the 48 lots around The Strip, tiles and dice, casinos and bosses, money and points.
"use strict";
(function () {
  const LEFT = [["A", 2], [null, 1], ["C", 4], [null, 1], ["E", 2]];
  const RIGHT = [["B", 2], [null, 1], ["D", 3], [null, 1], ["F", 3]];
  const TILE = { purple: "#7e57c2", gold: "#d4a017", aqua: "#26a69a", silver: "#b0bec5", brown: "#8d5a3b" };

  function place(blocks) {
    // block letter -> first grid row (1-based) of that block
    const rows = {};
    let row = 1;
    for (const [block, n] of blocks) { if (block) rows[block] = row; row += n; }
    return rows;
  }
  const ROW = { ...place(LEFT), ...place(RIGHT) };
  const COL = { A: 0, C: 0, E: 0, B: 4, D: 4, F: 4 };

  (window.GameViews || (window.GameViews = {})).lordsofvegas = {
    title: "Lords of Vegas",
    options: [
      { key: "lay_off", type: "bool", label: "Gamble lay-off", hint: "(the boss covers half a bet, the bank the rest)" },
      { key: "virtual_deck", type: "bool", label: "The companion draws the cards", hint: "(no physical deck needed)" },
    ],
    focus: null,
    render(sb, el, game) {
      const self = this;
      const h = window.h;
      const colourOf = (seat) => (seat === null || seat === undefined ? null : sb.players[seat].colour);
      const boss = {};
      for (const c of sb.casinos) for (const lot of c.lots) boss[lot] = c;

      const head = h("div", "lv-head");
      head.append(h("b", "", sb.last_card ? `Drawn: ${sb.last_card.label}` : "No card drawn yet"),
        h("span", "muted", ` · ${sb.deck.count} cards left`));

      const board = h("div", "lov-board");
      board.dataset.testid = "lov-board";
      const strip = h("div", "lov-strip", "THE STRIP");
      strip.style.gridColumn = "4";
      strip.style.gridRow = "1 / span 10";
      board.append(strip);
      for (const lot of sb.lots) {
        const block = lot.lot[0];
        const n = parseInt(lot.lot.slice(1), 10) - 1;
        const cell = h("button", "lov-lot");
        cell.type = "button";
        cell.dataset.lot = lot.lot;
        cell.style.gridRow = String(ROW[block] + Math.floor(n / 3));
        cell.style.gridColumn = String(COL[block] + (n % 3) + 1);
        cell.append(h("span", "lov-name", lot.lot));
        if (lot.tile) {
          cell.style.background = TILE[lot.tile.colour] || "#999";
          cell.classList.add("built");
          if (lot.tile.player !== null && lot.tile.player !== undefined) {
            const d = h("span", `die ${colourOf(lot.tile.player)}`, String(lot.tile.value));
            cell.append(d);
          } else {
            cell.append(h("span", "muted", "—"));
          }
          const casino = boss[lot.lot];
          if (casino && casino.boss !== null && casino.boss !== undefined) {
            cell.style.outline = `0.2rem solid ${colourOf(casino.boss)}`;
            cell.title = `${casino.company} casino, ${casino.size} tiles, boss ${sb.players[casino.boss].name}`;
          }
        } else {
          cell.append(h("span", "lov-cost", `$${lot.cost} · ${lot.die}`));
          if (lot.marker !== null && lot.marker !== undefined) {
            cell.classList.add("marked");
            cell.style.borderColor = colourOf(lot.marker);
            cell.append(h("span", `die mini ${colourOf(lot.marker)}`, ""));
          }
        }
        if (lot.strip) cell.classList.add("on-strip");
        if (self.focus === lot.lot) cell.classList.add("focused");
        cell.onclick = () => {
          self.focus = self.focus === lot.lot ? null : lot.lot;
          if (window.rerender) window.rerender();
        };
        board.append(cell);
      }

      const players = h("div", "players");
      sb.players.forEach((p, i) => {
        const card = h("div", "player" + (p.to_play ? " current" : ""));
        card.dataset.testid = `player-${i}`;
        const name = h("div", "name");
        name.append(h("span", `die ${p.colour} mini`, ""), ` ${p.name}`);
        card.append(name);
        const score = h("div", "cash", `${p.points} points · $${p.money}M`);
        score.dataset.testid = `score-${i}`;
        card.append(score);
        card.append(h("div", "score", `${p.markers_left} markers · boss of ${p.boss_of.length ? p.boss_of.join(", ") : "none"}`));
        players.append(card);
      });
      const parts = [head, board, players];
      const send = (action) => window.submitAction && window.submitAction(action);
      const field = (label, input) => { const l = h("label", "lov-field", label); l.append(input); return l; };
      const number = (max) => { const i = h("input"); i.type = "number"; i.min = "0"; if (max) i.max = String(max); i.value = "0"; return i; };

      // Gamble any amount up to the limit the rules give for each casino (options carry the largest).
      const bets = (game.awaiting.options || []).filter((o) => o.action.type === "gamble");
      if (bets.length) {
        const form = h("div", "payout lov-form");
        form.dataset.testid = "gamble-form";
        const casino = h("select");
        for (const o of bets) {
          const opt = h("option", "", `${o.action.lot} (up to $${o.action.amount}M)`);
          opt.value = o.action.lot;
          opt.dataset.max = o.action.amount;
          casino.append(opt);
        }
        const amount = number(bets[0].action.amount);
        amount.min = "1";
        amount.value = "1";
        casino.onchange = () => { amount.max = casino.selectedOptions[0].dataset.max; };
        const go = h("button", "primary", "Gamble");
        go.type = "button";
        go.onclick = () => send({ type: "gamble", lot: casino.value, amount: parseInt(amount.value, 10) });
        form.append(h("h2", "", "Gamble"), field("Casino ", casino), field(" $M ", amount), go);
        parts.push(form);
      }

      // Trades may happen between any two players whenever nothing else is pending.
      if (["draw", "play"].includes(sb.phase)) {
        const form = h("details", "payout lov-form");
        form.dataset.testid = "trade-form";
        form.append(h("summary", "", "Trade"));
        const seat = () => {
          const sel = h("select");
          sb.players.forEach((p, i) => { const o = h("option", "", p.name); o.value = String(i); sel.append(o); });
          return sel;
        };
        const a = seat(), b = seat();
        b.value = "1";
        const moneyA = number(), moneyB = number(), lotsA = h("input"), lotsB = h("input"), diceA = h("input"), diceB = h("input");
        for (const i of [lotsA, lotsB, diceA, diceB]) i.placeholder = "e.g. A1 C5";
        const list = (i) => i.value.split(/[\s,]+/).map((x) => x.trim().toUpperCase()).filter(Boolean);
        const go = h("button", "primary", "Record the trade");
        go.type = "button";
        go.onclick = () => send({
          type: "trade", a: parseInt(a.value, 10), b: parseInt(b.value, 10),
          money_a: parseInt(moneyA.value, 10) || 0, money_b: parseInt(moneyB.value, 10) || 0,
          lots_a: list(lotsA), lots_b: list(lotsB), dice_a: list(diceA), dice_b: list(diceB),
        });
        form.append(
          h("div", "muted", "Everything changes hands at once; points and tiles cannot be traded."),
          field("From ", a), field(" gives $M ", moneyA), field(" lots ", lotsA), field(" dice on ", diceA),
          h("br"), field("To ", b), field(" gives $M ", moneyB), field(" lots ", lotsB), field(" dice on ", diceB),
          h("div", "row"), go,
        );
        parts.push(form);
      }
      if (self.focus) {
        const f = h("div", "muted", `Showing the moves on ${self.focus}; tap it again for all.`);
        parts.splice(1, 0, f);
      }
      el.replaceChildren(...parts);
    },
  };
})();
