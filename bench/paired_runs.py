"""Paired rounds for whole-program benchmarks on this noisy machine: every
configuration's run sits right next to a native run of its own, the two in a
random order, the configurations shuffled within each round, so the drift
of the machine between runs cancels in the pair's ratio."""

import random
import sys


def paired_rounds(configs, measure, native, rounds, label):
    """Runs `rounds` rounds. configs: {name: argv}; measure(argv) -> a number;
    native: the native argv. Returns (native values, {name: values},
    {name: value / paired native value})."""
    natives = []
    values = {name: [] for name in configs}
    ratios = {name: [] for name in configs}
    for round_number in range(rounds):
        print(f"{label}: round {round_number + 1} of {rounds}", file=sys.stderr, flush=True)
        order = list(configs)
        random.shuffle(order)
        for name in order:
            if random.random() < 0.5:
                base, other = measure(native), measure(configs[name])
            else:
                other, base = measure(configs[name]), measure(native)
            natives.append(base)
            values[name].append(other)
            ratios[name].append(other / base)
    return natives, values, ratios
