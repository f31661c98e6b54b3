"""Heckmeck (Pickomino): the rules as a pure state machine.

A turn is a loop of *roll -> take one face -> roll again or claim*. The table rolls the physical dice;
the engine receives the faces. Rulings (see docs/games/heckmeck.md) settle what the rulebook leaves
open: stealing is a choice, a failed turn with an empty stack flips nothing, stopping with a claim
available means taking one of the claims offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.games.base import Awaiting, Event, Option, Outcome, Rules
from companion.games.codec import ActionCodec
from companion.games.evolve import evolve
from companion.games.heckmeck.actions import Action, Claim, Roll, Stop, Take, codec
from companion.games.heckmeck.state import FACES, ORDER, TILES, WORM, HeckmeckState, face_points, worms_on
from companion.games.inputs import JSON, DiceSpec, Face
from companion.games.messages import Msg, msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import face_word


class HeckmeckRules(Rules[HeckmeckState, Action]):
    name: ClassVar[str] = "heckmeck"
    title: ClassVar[str] = "Heckmeck"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    codec: ClassVar[ActionCodec[Any]] = codec

    # --- setup -------------------------------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, JSON]) -> HeckmeckState:
        self.check_player_count(players)
        self.check_options(options, ("short_variant", "first_player"))
        short = self.flag(options, "short_variant")
        first = options.get("first_player", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players):
            raise RuleViolation(msg("The first player must be one of the players."))
        return HeckmeckState(
            players=tuple(p.strip() for p in players),
            short_variant=short,
            grill=TILES,
            face_down=(),
            stacks=tuple(() for _ in players),
            current=first,
            phase="roll",
        )

    # --- queries -----------------------------------------------------------------------------
    def claims(self, state: HeckmeckState) -> list[Claim]:
        """The tiles the current player may end the turn with, steal first (the usual choice)."""
        if WORM not in state.kept:
            return []
        total = state.kept_total
        out: list[Claim] = []
        for seat, stack in enumerate(state.stacks):
            if seat != state.current and stack and stack[-1] == total:
                out.append(Claim(total, seat))
        below = [t for t in state.grill if t <= total]
        if below:
            out.append(Claim(below[-1]))
        return out

    def takeable(self, state: HeckmeckState) -> list[Face]:
        """Faces in the current roll that the player has not kept yet, in face order."""
        present = set(state.roll) - set(state.kept)
        return [f for f in FACES if f in present]

    def awaiting(self, state: HeckmeckState) -> Awaiting[Action]:
        who = (state.current,)
        name = state.players[state.current]
        spec = DiceSpec(state.dice_left, FACES)
        if state.phase == "over":
            return Awaiting("over", (), msg("The game is over."))
        if state.phase == "roll":
            prompt = nmsg("{player}: roll {n} die.", "{player}: roll {n} dice.", state.dice_left, player=name)
            return Awaiting("dice", who, prompt, dice=spec)
        if state.phase == "take":
            options = tuple(self._take_option(state, f) for f in self.takeable(state))
            return Awaiting("choice", who, msg("{player}: keep all dice of one face.", player=name), options=options)
        claims = self.claims(state)
        options = tuple(self._claim_option(state, c, i == 0) for i, c in enumerate(claims))
        if state.phase == "claim":
            return Awaiting(
                "choice", who, msg("{player}: no dice left to roll; take a tile.", player=name), options=options
            )
        # decide: rolling the remaining dice is always open (awaiting.dice), or end the turn here
        stop: tuple[Option[Action], ...] = () if claims else (Option(Stop(), msg("Stop here (the turn fails)")),)
        prompt = self._decide_prompt(state, name, bool(claims))
        return Awaiting("choice", who, prompt, options=(*options, *stop), dice=spec)

    @staticmethod
    def _decide_prompt(state: HeckmeckState, name: str, can_claim: bool) -> Msg:
        """Only offer a tile in the prompt when one can be taken (issue 26: it was offered regardless)."""
        if can_claim:
            return nmsg(
                "{player}: {total} kept. Roll the last die again or take a tile.",
                "{player}: {total} kept. Roll {n} dice again or take a tile.",
                state.dice_left,
                player=name,
                total=state.kept_total,
            )
        return nmsg(
            "{player}: {total} kept, no tile to take yet. Roll the last die again or stop.",
            "{player}: {total} kept, no tile to take yet. Roll {n} dice again or stop.",
            state.dice_left,
            player=name,
            total=state.kept_total,
        )

    def _take_option(self, state: HeckmeckState, face: Face) -> Option[Action]:
        n = state.roll.count(face)
        label = msg("Keep {count} x {face} (+{points})", count=n, face=face_word(face), points=n * face_points(face))
        return Option(Take(face), label)

    def _claim_option(self, state: HeckmeckState, claim: Claim, first: bool) -> Option[Action]:
        if claim.victim is None:
            label = msg("Take {tile} from the grill", tile=claim.tile)
        else:
            label = msg("Steal {tile} from {player}", tile=claim.tile, player=state.players[claim.victim])
        return Option(claim, label, recommended=first)

    def outcome(self, state: HeckmeckState) -> Outcome | None:
        if state.phase != "over":
            return None
        worms = [sum(worms_on(t) for t in s) for s in state.stacks]
        best = max(worms)
        leaders = [i for i, w in enumerate(worms) if w == best]
        if len(leaders) > 1:
            tops = {i: max(state.stacks[i], default=0) for i in leaders}
            high = max(tops.values())
            leaders = [i for i in leaders if tops[i] == high]
        if len(leaders) > 1:
            names = [state.players[i] for i in leaders]
            text = nmsg(
                "{players} share the win with {n} worm.", "{players} share the win with {n} worms.", best, players=names
            )
        else:
            text = nmsg(
                "{player} wins with {n} worm.", "{player} wins with {n} worms.", best, player=state.players[leaders[0]]
            )
        return Outcome(tuple(leaders), text)

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: HeckmeckState, action: Action) -> tuple[HeckmeckState, list[Event]]:
        if state.phase == "over":
            raise RuleViolation(msg("The game is over; start a new one or undo."))
        if isinstance(action, Roll):
            return self._roll(state, action)
        if isinstance(action, Take):
            return self._take(state, action.face)
        if isinstance(action, Claim):
            return self._claim(state, action)
        if isinstance(action, Stop):
            return self._stop(state)
        raise RuleViolation(msg("That is not a move of this game."))

    def _roll(self, state: HeckmeckState, action: Roll) -> tuple[HeckmeckState, list[Event]]:
        if state.phase not in ("roll", "decide"):
            raise RuleViolation(msg("Not time to roll: first keep a face from the dice on the table."))
        DiceSpec(state.dice_left, FACES).check(action.dice)
        faces = tuple(sorted((d.face for d in action.dice), key=ORDER.__getitem__))
        name = state.players[state.current]
        shown = [face_word(f) for f in faces]
        text = msg("{player} rolled {dice}.", player=name, dice=shown)
        events = [Event("rolled", text, {"player": state.current, "dice": list(faces)})]
        state = evolve(state, phase="take", roll=faces)
        if not self.takeable(state):
            events.append(Event("no_new_face", msg("{player} has already kept every face rolled.", player=name), {}))
            state, more = self._fail(state)
            events += more
        return state, events

    def _take(self, state: HeckmeckState, face: Face) -> tuple[HeckmeckState, list[Event]]:
        if state.phase != "take":
            raise RuleViolation(msg("There is no roll to keep dice from; roll first."))
        if face not in state.roll:
            raise RuleViolation(msg("No {face} was rolled.", face=face_word(face)))
        if face in state.kept:
            raise RuleViolation(
                msg("Dice showing {face} are already kept this turn; pick another face.", face=face_word(face))
            )
        n = state.roll.count(face)
        kept = state.kept + (face,) * n
        state = evolve(state, kept=kept, roll=())
        name = state.players[state.current]
        events = [
            Event(
                "kept",
                msg(
                    "{player} kept {count} x {face}: {total} in all.",
                    player=name,
                    count=n,
                    face=face_word(face),
                    total=state.kept_total,
                ),
                {"player": state.current, "face": face, "count": n, "total": state.kept_total},
            )
        ]
        out_of_dice = state.dice_left == 0 or len(set(kept)) == len(FACES)
        if not out_of_dice:
            return evolve(state, phase="decide"), events
        if self.claims(state):
            return evolve(state, phase="claim"), events
        events.append(Event("cannot_claim", msg("{player} cannot roll on and has no tile to take.", player=name), {}))
        state, more = self._fail(state)
        return state, events + more

    def _claim(self, state: HeckmeckState, claim: Claim) -> tuple[HeckmeckState, list[Event]]:
        if state.phase not in ("decide", "claim"):
            raise RuleViolation(msg("A tile can only be taken after keeping dice."))
        if claim not in self.claims(state):
            raise RuleViolation(self._why_not(state, claim))
        me = state.current
        stacks = list(state.stacks)
        grill = state.grill
        name = state.players[me]
        if claim.victim is None:
            grill = tuple(t for t in grill if t != claim.tile)
            text = msg("{player} took {tile} from the grill.", player=name, tile=claim.tile)
        else:
            stacks[claim.victim] = stacks[claim.victim][:-1]
            text = msg(
                "{player} stole {tile} from {victim}.", player=name, tile=claim.tile, victim=state.players[claim.victim]
            )
        stacks[me] = stacks[me] + (claim.tile,)
        data = {"player": me, "tile": claim.tile, "victim": claim.victim, "worms": worms_on(claim.tile)}
        state = evolve(state, grill=grill, stacks=tuple(stacks))
        events = [Event("claimed", text, data)]
        return self._next_turn(state, events)

    def _stop(self, state: HeckmeckState) -> tuple[HeckmeckState, list[Event]]:
        if state.phase != "decide":
            raise RuleViolation(msg("You can only stop after keeping dice."))
        if self.claims(state):
            raise RuleViolation(msg("You can take a tile: choose one of the tiles offered."))
        name = state.players[state.current]
        state, events = self._fail(state)
        return state, [Event("stopped", msg("{player} stopped with nothing to take.", player=name), {}), *events]

    def _why_not(self, state: HeckmeckState, claim: Claim) -> Msg:
        if WORM not in state.kept:
            return msg("You need at least one worm among your kept dice to take a tile.")
        total = state.kept_total
        if claim.victim is not None:
            if claim.victim == state.current or not 0 <= claim.victim < len(state.players):
                return msg("You can only steal from another player.")
            return msg("You can only steal a tile that shows exactly {total} on top of a stack.", total=total)
        if claim.tile > total:
            return msg("Your dice make {total}; tile {tile} needs more.", total=total, tile=claim.tile)
        if claim.tile not in state.grill:
            return msg("Tile {tile} is not on the grill.", tile=claim.tile)
        return msg("Take the highest tile on the grill that your total reaches.")

    def _fail(self, state: HeckmeckState) -> tuple[HeckmeckState, list[Event]]:
        """A failed turn: the top tile goes back to the grill and the highest grill tile turns over."""
        me = state.current
        name = state.players[me]
        stack = state.stacks[me]
        events: list[Event] = []
        grill, face_down = state.grill, state.face_down
        returned: int | None = None
        flipped: int | None = None
        if stack:
            returned = stack[-1]
            stacks = list(state.stacks)
            stacks[me] = stack[:-1]
            state = evolve(state, stacks=tuple(stacks))
            grill = tuple(sorted(grill + (returned,)))
            if grill[-1] != returned or state.short_variant:
                flipped = grill[-1]
                grill = grill[:-1]
                face_down = tuple(sorted(face_down + (flipped,)))
        if returned is None:
            text = msg("{player}'s turn failed; no tile to give back.", player=name)
        elif flipped is None:
            text = msg(
                "{player}'s turn failed: {tile} goes back to the grill and stays face up.", player=name, tile=returned
            )
        elif flipped == returned:
            text = msg("{player}'s turn failed: {tile} goes back to the grill face down.", player=name, tile=returned)
        else:
            text = msg(
                "{player}'s turn failed: {tile} goes back to the grill and {flipped} is turned over.",
                player=name,
                tile=returned,
                flipped=flipped,
            )
        events.append(Event("failed", text, {"player": me, "returned": returned, "flipped": flipped}))
        state = evolve(state, grill=grill, face_down=face_down)
        return self._next_turn(state, events)

    def _next_turn(self, state: HeckmeckState, events: list[Event]) -> tuple[HeckmeckState, list[Event]]:
        if not state.grill:
            state = evolve(state, phase="over", roll=(), kept=())
            outcome = self.outcome(state)
            assert outcome is not None
            events.append(Event("game_over", outcome.text, {"winners": list(outcome.winners)}))
            return state, events
        nxt = (state.current + 1) % len(state.players)
        state = evolve(state, current=nxt, phase="roll", roll=(), kept=(), turn=state.turn + 1)
        return state, events

    # --- views -------------------------------------------------------------------------------
    def scoreboard(self, state: HeckmeckState) -> JSON:
        outcome = self.outcome(state)
        return {
            "game": self.name,
            "turn": state.turn,
            "current": state.current,
            "phase": state.phase,
            "short_variant": state.short_variant,
            "grill": [{"tile": t, "worms": worms_on(t)} for t in state.grill],
            "face_down": list(state.face_down),
            "players": [
                {
                    "name": name,
                    "stack": list(state.stacks[i]),
                    "top": state.stacks[i][-1] if state.stacks[i] else None,
                    "worms": sum(worms_on(t) for t in state.stacks[i]),
                }
                for i, name in enumerate(state.players)
            ],
            "roll": list(state.roll),
            "kept": list(state.kept),
            "kept_total": state.kept_total,
            "has_worm": WORM in state.kept,
            "dice_left": state.dice_left,
            "outcome": None if outcome is None else outcome.to_json(),
        }
