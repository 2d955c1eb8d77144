"""Draw the scrambler's wiring as SVG schematics (schemdraw, no matplotlib).

    python hardware/schematics.py             # writes hardware/pi-scrambler.svg, pico-box.svg
    python hardware/schematics.py --out DIR   # somewhere else

The pins and part values here are the ones WIRING.md explains and the software uses by
default: BCM 17/27/22 on the Pi (companion/scrambler/gpio.py), GP14/15/13 on the Pico
(firmware/settings.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

schemdraw.use("svg")  # schemdraw's own SVG backend: no matplotlib needed

HERE = Path(__file__).resolve().parent

#: One value for the LED resistor on both boards: (3.3 V - 2.0 V) / 330 ohm = 3.9 mA.
LED_RESISTOR = "330 Ω"


def _board(d: schemdraw.Drawing, title: str, pins: list[tuple[str, str]]) -> elm.Ic:
    """A board as a box with its header pins on the right side, listed top to bottom."""
    ic = elm.Ic(
        # schemdraw lists a side's pins from the bottom up
        pins=[elm.IcPin(name=name, anchorname=anchor, side="right")
              for anchor, name in reversed(pins)],
        size=(5, 2 * len(pins)), pinspacing=2, edgepadW=0.5, lblsize=13,
    ).label(title, loc="top", fontsize=15)
    d += ic
    return ic


def _button(d: schemdraw.Drawing, pin) -> None:
    """A push button from `pin` to ground: the internal pull-up holds the pin high."""
    d += elm.Line().right(1).at(pin)
    d += elm.Button().right().label("push button")
    d += elm.Line().right(0.5)
    d += elm.Ground()


def _led(d: schemdraw.Drawing, pin) -> None:
    """An LED with its current-limiting resistor from `pin` to ground."""
    d += elm.Line().right(1).at(pin)
    d += elm.Resistor().right().label(LED_RESISTOR)
    d += elm.LED().right().label("LED (red)")
    d += elm.Ground()


def pi_scrambler() -> schemdraw.Drawing:
    """The Pi's scrambler: button, LED and an active 5 V buzzer switched by an NPN."""
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=12, unit=2.5, margin=1)
    ic = _board(d, "Raspberry Pi", [
        ("v5", "5V (pin 2)"),
        ("buz", "BCM22 (pin 15)"),
        ("led", "BCM27 (pin 13)"),
        ("btn", "BCM17 (pin 11)"),
        ("gnd", "GND (pin 9)"),
    ])
    # Buzzer: the GPIO only feeds the transistor's base; the transistor sinks the buzzer's
    # 5 V current, which is more than a GPIO pin may give.
    d += elm.Line().right(1).at(ic.buz)
    d += elm.Resistor().right().label("1 kΩ (base)")
    q = elm.BjtNpn(circle=True).right().anchor("base").label("NPN\nBC337 / 2N2222", loc="right")
    d += q
    d += elm.Ground().at(q.emitter)
    d += elm.Line().up(1).at(q.collector)
    bottom = d.here
    d += elm.Dot()
    buzzer = elm.Speaker().right().anchor("in2").at(bottom).label("active buzzer 5 V", loc="right")
    d += buzzer
    d += elm.Line().up(1.5).at(buzzer.in1)
    top = d.here
    d += elm.Dot()
    # The diode takes the coil's kick when the transistor switches off (cathode to +5 V).
    d += elm.Line().left(1.5).at(bottom)
    d += elm.Diode().up().toy(top[1]).label("1N4148", loc="bottom")
    d += elm.Line().right(1.5)
    # +5 V from the header, routed above the buzzer.
    d += elm.Line().right(0.6).at(ic.v5)
    d += elm.Wire("|-").to(top).label("+5 V", loc="top")
    _led(d, ic.led)
    _button(d, ic.btn)
    d += elm.Line().right(1).at(ic.gnd)
    d += elm.Ground()
    return d


def pico_box() -> schemdraw.Drawing:
    """The USB box: a Pico with a button, an LED and a passive piezo on PWM."""
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=12, unit=2.5, margin=1)
    ic = _board(d, "Raspberry Pi Pico", [
        ("usb", "micro-USB"),
        ("buz", "GP13 (pin 17)"),
        ("led", "GP15 (pin 20)"),
        ("btn", "GP14 (pin 19)"),
        ("gnd", "GND (pin 18)"),
    ])
    d += elm.Line().right(1).at(ic.usb)
    d += elm.Label().label("to the Pi: power + serial", loc="right")
    d += elm.Line().right(1).at(ic.buz)
    d += elm.Resistor().right().label("100 Ω")
    piezo = elm.Speaker().right().anchor("in1").label("passive piezo", loc="right")
    d += piezo
    d += elm.Line().down(0.5).at(piezo.in2)
    d += elm.Ground()
    _led(d, ic.led)
    _button(d, ic.btn)
    d += elm.Line().right(1).at(ic.gnd)
    d += elm.Ground()
    return d


DRAWINGS = {"pi-scrambler.svg": pi_scrambler, "pico-box.svg": pico_box}


def write_all(out: Path) -> list[Path]:
    """Draw every schematic into `out`; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in DRAWINGS.items():
        path = out / name
        path.write_bytes(draw().get_imagedata("svg"))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: write the SVGs (default: next to this script)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the SVG files")
    for path in write_all(parser.parse_args(argv).out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
