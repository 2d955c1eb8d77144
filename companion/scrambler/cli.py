"""`sabacc-companion scrambler simulate` and `sabacc-companion verify`.

    sabacc-companion scrambler simulate --trigger 2d6-doubles --rolls 100000 --json
    sabacc-companion scrambler simulate --game GAME --rolls 60000 --seed HEX
    sabacc-companion scrambler simulate --dice DICE-KEY --json
    sabacc-companion verify --seed HEX --commitment HEX --roll 2d6-doubles:3,3 --roll d6-low:2
    sabacc-companion verify --record hand-7.json

`verify` exits 0 when the seed matches the commitment and gives every recorded roll, 1 when
anything does not match (each mismatch is printed), 2 for unusable input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.games import registry
from companion.rules.rulesets import ShiftKind, Trigger
from companion.scrambler.dice import DICE, spec_of
from companion.scrambler.seed import BY_HAND, SCHEME, SeededRoller, verify
from companion.scrambler.simulate import simulate, simulate_dice

DICE_TRIGGERS = [t.value for t in Trigger if t in DICE]


def register(sub) -> None:
    """Add the `scrambler` and `verify` subcommands to the companion's command line."""
    scr = sub.add_parser("scrambler", help="the shift scrambler: simulate its rolls")
    scr_sub = scr.add_subparsers(dest="scrambler_command", required=True, metavar="ACTION")
    sim = scr_sub.add_parser("simulate", help="roll many times and count the shifts")
    which = sim.add_mutually_exclusive_group(required=True)
    which.add_argument("--trigger", choices=DICE_TRIGGERS)
    which.add_argument("--preset", choices=[n for n, rs in registry.presets().items()
                                                if getattr(rs, "scrambler_trigger", None) in DICE],
                       help="roll as a preset's dice (its trigger, face and shift kind)")
    which.add_argument("--dice", choices=[k for k, d in registry.dice().items() if d.count],
                       help="roll a game's dice by their key and count each die's faces")
    which.add_argument("--game", choices=[n for n, g in registry.games().items() if g.dice],
                       help="roll each of a game's dice and count each die's faces")
    sim.add_argument("--rolls", type=int, default=10000, help="how many rolls (default 10000)")
    sim.add_argument("--face", type=int, help="the face that shifts (d10/d12/d20, or the symbol a two-dice trigger matches)")
    sim.add_argument("--kind", default=None,
                     choices=[k.value for k in ShiftKind], help="the shift kind (default: the preset's, else core)")
    sim.add_argument("--seed", help="derive the rolls from this hex seed (reproducible) "
                     "instead of fresh operating-system randomness")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=run_simulate)

    ver = sub.add_parser("verify", help="recompute a hand's rolls from its revealed seed")
    ver.add_argument("--record", type=Path, help="a JSON file of the hand's record "
                     "(scheme, commitment, seed, rolls: [{trigger, dice}, ...])")
    ver.add_argument("--seed", help="the revealed seed (64 hex digits)")
    ver.add_argument("--commitment", help="the commitment published before the hand")
    ver.add_argument("--roll", action="append", default=[], metavar="TRIGGER:A,B",
                     help="a recorded roll, in order (repeat for each roll)")
    ver.add_argument("--face", type=int, help="the trigger's chosen face, to check shifts")
    ver.add_argument("--json", action="store_true", help="print the outcome as JSON")
    ver.set_defaults(func=run_verify)


def _print_dice(out: dict) -> None:
    """One game's dice summary as lines for people: each die's faces, seen and expected."""
    print(f"{out['name']} ({out['dice']}, {out['shape']}): {out['rolls']} rolls; {out['means']}")
    if "shifts" in out:
        observed = "-" if out["observed_rate"] is None else f"{out['observed_rate']:.4f}"
        print(f"  {out['shifts']} shifts, observed {observed}, expected {out['expected_rate_fraction']}")
    for die in out["faces"]:
        seen = ", ".join(f"{w} {n} ({die['expected'][w]:.3f})" for w, n in die["counts"].items())
        print(f"  {die['die']}: {seen}")


def run_simulate_dice(args) -> int:
    """Simulate `args.rolls` rolls of a game's dice (`--dice`) or of each of a game's (`--game`)."""
    try:
        roller = SeededRoller(args.seed) if args.seed else None
    except ValueError as exc:
        print(f"error: --seed: {exc}", file=sys.stderr)
        return 2
    kind = ShiftKind(args.kind) if args.kind else ShiftKind.CORE
    specs = (list(registry.games()[args.game].dice) if args.game
             else [registry.dice()[args.dice]])
    outs = []
    for spec in specs:
        if spec.count == 0:
            continue
        face = args.face if args.face is not None and args.face <= spec.sides else None
        outs.append(simulate_dice(spec, args.rolls, kind=kind, face=face, roller=roller))
    result: dict = {"game": args.game, "dice": outs} if args.game else outs[0]
    if roller is not None:
        result["commitment"] = roller.commitment
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for out in outs:
            _print_dice(out)
    return 0


def run_simulate(args) -> int:
    """Simulate `args.rolls` rolls and print the counts."""
    if args.rolls < 0:
        print("error: --rolls must not be negative", file=sys.stderr)
        return 2
    if args.dice or args.game:
        return run_simulate_dice(args)
    preset = registry.presets()[args.preset] if args.preset else None
    trigger = preset.scrambler_trigger if preset else Trigger(args.trigger)
    kind = ShiftKind(args.kind) if args.kind else preset.shift_kind if preset else ShiftKind.CORE
    face = args.face if args.face is not None else preset.trigger_face if preset else None
    sides = DICE[trigger][1]
    if args.rolls < 0:
        print("error: --rolls must not be negative", file=sys.stderr)
        return 2
    if face is not None and not 1 <= face <= sides:
        print(f"error: --face must be a face of a d{sides}", file=sys.stderr)
        return 2
    try:
        roller = SeededRoller(args.seed) if args.seed else None
    except ValueError as exc:
        print(f"error: --seed: {exc}", file=sys.stderr)
        return 2
    out = simulate(trigger, args.rolls, kind=kind, face=face, roller=roller)
    if roller is not None:
        out["commitment"] = roller.commitment
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        observed = "-" if out["observed_rate"] is None else f"{out['observed_rate']:.4f}"
        print(f"{out['trigger']} ({out['dice']}): {out['shifts']} shifts in {out['rolls']} rolls, "
              f"observed {observed}, expected {out['expected_rate_fraction']} "
              f"= {out['expected_rate']:.4f}")
        for kind, n in out["kinds"].items():
            print(f"  {kind}: {n}")
    return 0


def _parse_roll(text: str) -> dict:
    trigger, _, faces = text.partition(":")
    faces, _, mark = faces.partition(":")
    if spec_of(trigger) is None:  # a shift trigger or any game's dice key
        raise ValueError(f"unknown trigger {trigger!r}")
    if mark not in ("", "by-hand"):
        raise ValueError(f"unknown mark {mark!r} (only by-hand)")
    dice = [int(f) for f in faces.split(",") if f.strip()] if faces else []
    return {"trigger": trigger, "dice": dice, **({BY_HAND: True} if mark else {})}


def run_verify(args) -> int:
    """Check a revealed seed against its commitment and the recorded rolls; print the outcome."""
    record: dict = {}
    if args.record:
        try:
            record = json.loads(args.record.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"error: cannot read the record {args.record}: {exc}", file=sys.stderr)
            return 2
        if not isinstance(record, dict):
            print("error: the record must be a JSON object", file=sys.stderr)
            return 2
        if record.get("scheme", SCHEME) != SCHEME:
            print(f"error: the record uses scheme {record['scheme']!r}; this tool checks {SCHEME}",
                  file=sys.stderr)
            return 2
    seed = args.seed or record.get("seed")
    published = args.commitment or record.get("commitment")
    if not seed or not published:
        print("error: give the seed and the commitment (arguments or --record)", file=sys.stderr)
        return 2
    try:
        rolls = [_parse_roll(r) for r in args.roll] if args.roll else list(record.get("rolls", []))
    except ValueError as exc:
        print(f"error: --roll: {exc} (write it as TRIGGER:A,B, e.g. 2d6-doubles:3,3)",
              file=sys.stderr)
        return 2
    if not all(isinstance(r, dict) for r in rolls):
        print("error: each recorded roll must be an object with trigger and dice", file=sys.stderr)
        return 2
    face = args.face if args.face is not None else record.get("face")
    result = verify(seed, published, rolls, face=face)
    if args.json:
        print(json.dumps({"ok": result.ok, "problems": result.problems, "rolls": result.rolls}))
    elif result.ok:
        print(f"OK: the seed matches the commitment and gives all {len(result.rolls)} rolls.")
    else:
        print("MISMATCH:", file=sys.stderr)
        for problem in result.problems:
            print(f"  {problem}", file=sys.stderr)
    return 0 if result.ok else 1
