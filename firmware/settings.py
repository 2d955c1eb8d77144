"""The box's settings: edit here, then copy this file to the Pico again (see README.md).

Everything can also be changed over USB by the companion (`MODE` and `TIMER` lines) or,
standalone, with a long press (it steps through the triggers and the timer).
"""

#: What the box does at power-on: "companion" (report the button to the companion over
#: USB), "dice" (roll by itself) or "timer" (a random shift timer). Holding the button
#: down while plugging the box in starts it in "dice" mode whatever this says.
MODE = "companion"

#: The trigger the box rolls in dice mode: 2d6-doubles, 2d6-spike, d6-high, d6-low,
#: d10, d12 or d20 (RULES.md).
TRIGGER = "2d6-doubles"

#: The random timer, in seconds: the mean wait between shifts, the shortest and the longest.
TIMER_MEAN = 120
TIMER_MIN = 30
TIMER_MAX = 300

#: The button: how long the level must be steady (debounce) and how long a long press is.
DEBOUNCE_MS = 30
HOLD_MS = 800

#: GPIO numbers (GPn, not the physical pin numbers): see hardware/WIRING.md.
BUTTON_PIN = 14  # physical pin 19; the other leg to GND (pin 18)
LED_PIN = 15     # physical pin 20, through a 330 ohm resistor
BUZZER_PIN = 13  # physical pin 17: a passive piezo driven by PWM

#: How loud the piezo is: the PWM duty cycle out of 65535 (half is loudest).
BUZZER_DUTY = 32768
