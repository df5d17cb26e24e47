"""How Showrunner's world is told in a spoken recap (domain/phrasing.py): the Supporting Cast,
Threats, Action Sequences, Subplots and the Oracle.

Power Dice, pips and roster slots stay out; a Threat's level is heard only as how daunting it
is ("a dangerous opponent", "an obstacle"); a Set Piece and a Subplot's Reveal are named as the table names
them, because they are the moments the Show builds to.
"""

from __future__ import annotations

WORLD_PHRASES: dict[str, tuple[str, ...]] = {
    "actor": (
        "{actor}{concept} came into the story.",
        "A new face appeared: {actor}{concept}.",
        "{actor}{concept} joined the supporting cast.",
    ),
    "possessor-empowered": (
        "{actor}'s hold on {star} grew stronger.",
        "The thing inside {star}, {actor}, grew more powerful.",
        "{star} felt {actor} tighten its grip.",
    ),
    "actors-won": (
        "{first} clashed with {second}, and {winner} came out on top.",
        "{winner} got the better of {loser} when they clashed.",
        "When {first} and {second} clashed, {winner} won.",
    ),
    "actors-even": (
        "{first} clashed with {second}, and neither came out on top.",
        "{first} and {second} fought each other to a standstill.",
        "When {first} and {second} clashed, both came away the worse for it.",
    ),
    "tie-bond": (
        "{actor} drew closer to {person}.",
        "{actor}'s bond with {person} grew stronger.",
        "{person} won a little more of {actor}'s trust.",
    ),
    "tie-grudge": (
        "{actor}'s grudge against {person} deepened.",
        "{actor} held it against {person}, more than ever.",
        "{person} gave {actor} one more reason to resent them.",
    ),
    "threat-opponent": (
        "Then came {threat}, {what}.",
        "Now there was {threat} to reckon with, {what}.",
        "{threat} stepped out of the shadows, {what}.",
    ),
    "threat-obstacle": (
        "Then the way was blocked by {threat}, {what}.",
        "{threat} rose up in their path, {what}.",
        "In their way stood {threat}, {what}.",
    ),
    "threat-project": (
        "The cast took on {threat}, {what}.",
        "There was work to do now: {threat}, {what}.",
        "Then came {threat}, {what} to see through.",
    ),
    "threat-defeated": (
        "{star} defeated {target}.",
        "{star} brought {target} down.",
        "{target} fell to {star}.",
    ),
    "threat-destroyed": (
        "{star} destroyed {target}.",
        "{star} left nothing of {target} standing.",
        "{target} was wrecked, and {star} did it.",
    ),
    "threat-complete": (
        "{star} saw {target} through to the end.",
        "{star} completed {target}.",
        "{target} was done at last, thanks to {star}.",
    ),
    "threat-written-off": (
        "{star} put an end to {target}, for good.",
        "{star} wrote {target} out of the story.",
        "{target} was finished, and {star} saw to it.",
    ),
    "threat-worn": (
        "{star} wore down {target}.",
        "{star} chipped away at {target}.",
        "{star} put {target} on the back foot.",
    ),
    "threat-held": (
        "{star} made no headway against {target}.",
        "{target} shrugged off everything {star} tried.",
        "{star} threw everything at {target}, to no avail.",
    ),
    "sequence-action": (
        "Then the action kicked in, all hands on one goal: {goal}{against}.",
        "The cast threw themselves into the action: {goal}{against}.",
        "It turned into an action sequence, with one goal: {goal}{against}.",
    ),
    "sequence-set-piece": (
        "Then came the big set piece: {goal}{against}.",
        "Everything built to one great set piece: {goal}{against}.",
        "The cast launched a set piece, all or nothing: {goal}{against}.",
    ),
    "sequence-defeated": (
        "In the thick of the action, the cast defeated {target}.",
        "Together the cast brought {target} down.",
        "{target} fell before the whole cast.",
    ),
    "sequence-destroyed": (
        "In the thick of the action, the cast destroyed {target}.",
        "Together the cast left nothing of {target} standing.",
        "{target} was wrecked by the whole cast.",
    ),
    "sequence-complete": (
        "In the thick of the action, the cast saw {target} through.",
        "Together the cast completed {target}.",
        "{target} was done at last, by the whole cast.",
    ),
    "sequence-ended-good": (
        "The action was over, and they had done it: {goal}.",
        "And the sequence ended in triumph: {goal}.",
        "When the dust settled, they had won through: {goal}.",
    ),
    "sequence-ended-mixed": (
        "The action was over, at a price: {goal}.",
        "The sequence ended with a half-won fight: {goal}.",
        "When the dust settled, they had only half of what they wanted: {goal}.",
    ),
    "sequence-ended-bad": (
        "The action was over, and it had gone against them: {goal}.",
        "And the sequence ended in failure: {goal}.",
        "When the dust settled, they had lost: {goal}.",
    ),
    "sequence-beat-good": (
        "In the action, {star} pushed them closer: {goal}.",
        "{star} won a step of the fight: {goal}.",
        "One beat went their way, thanks to {star}: {goal}.",
    ),
    "sequence-beat-mixed": (
        "In the action, {star} gained ground, at a cost: {goal}.",
        "{star} held on, just about, in the fight: {goal}.",
        "One beat was a near thing for {star}: {goal}.",
    ),
    "sequence-beat-bad": (
        "In the action, {star} lost ground: {goal}.",
        "{star} stumbled in the fight: {goal}.",
        "One beat went against {star}: {goal}.",
    ),
    "subplot-written": (
        "Behind the scenes, {plotter} began to plot.",
        "Out of sight, {plotter} started scheming.",
        "Somewhere far from the cast, {plotter} was making plans.",
    ),
    "subplot-revealed": (
        "And the truth came out: {plotter} had been {plan}.",
        "Then came the Reveal: {plotter} had been {plan}.",
        "It all came to light: {plotter} had been {plan}.",
    ),
    "subplot-resolved": (
        "That was the end of {plotter}'s scheming.",
        "{plotter}'s plot played itself out.",
        "{plotter}'s scheme was settled, one way or another.",
    ),
    "oracle": (
        "Someone asked the Oracle: {question}? It answered: {answer}.",
        "The Oracle was asked: {question}? And it said: {answer}.",
        "{question}? The Oracle answered: {answer}.",
    ),
}
