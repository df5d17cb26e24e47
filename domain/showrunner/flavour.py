"""The Writer's Room flavour tables, as data in one place: Appendix F (Scheme Subplot Generator)
and Appendix G (Currying Favor), with the d10 that names an Ability.

The printed book stops after the fifth Ability (Move) of each appendix: for Sense, Talk, Think,
Travel and Work there is no table, and a lookup answers None (the table describes the form itself).

Dice purposes: "scheme" (the 2d10 naming two Abilities), "favor" (the d10 choosing Primary,
Secondary or random), "ability" (a random Ability), "form" (the d10 on an Ability's table).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..dice import DiceSource, check_faces
from ..errors import RuleViolation
from .sheet import AbilityName

# The appendices number the Abilities alphabetically (1 Channel, 2 Endure, 3 Fight, 4 Impress,
# 5 Move), not in the sheet's order (where Move comes before Impress); 6-10 follow suit.
ABILITY_BY_D10: tuple[AbilityName, ...] = tuple(sorted(AbilityName, key=lambda a: a.value))


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Form(_Frozen):
    """One row of an appendix table: what the Scheme or the favour looks like in the story."""

    title: str
    text: str


def _forms(*rows: tuple[str, str]) -> tuple[Form, ...]:
    return tuple(Form(title=title, text=text) for title, text in rows)


SCHEMES: dict[AbilityName, tuple[Form, ...]] = {
    AbilityName.CHANNEL: _forms(
        ("Curse", "Weaves a hex to plague the target with bad luck, constant failure, or sudden sickness."),
        ("Blight", "Corrupts, drains, or decays the land or environment around the target’s home or base."),
        ("Psychic Assault", "Attacks the target's mind directly, causing horrific nightmares or temporary madness."),
        ("Nullify", "Strips the target of their supernatural, magical, or advanced technological protections."),
        ("Summon Monster", "Calls forth a wild beast, spirit, or creature to hunt down or destroy the target."),
        ("Banish", "Uses power to temporarily exile the target to another plane, prison, or distant place."),
        ("Dominate", "Temporarily controls the mind, decisions, or loyalties of the target’s close ally."),
        ("Cataclysm", "Unleashes a storm, sudden fire, or localized tremor to wreck the target’s active assets."),
        ("Drain", "Siphons vital energy, power, or physical stamina from the target to empower the user."),
        ("False Vision", "Sends a highly misleading prophetic vision to lure the target into a dangerous trap."),
    ),
    AbilityName.ENDURE: _forms(
        ("Outlast", "Engages the target in a brutal war of attrition until they run completely out of resources."),
        ("Blockade", "Physically blocks or patrols a vital supply route, slowly starving the target out."),
        ("Occupation", "Squats directly in the target’s territory and stubbornly refuses to leave."),
        ("Resist", "Completely ignores the target's attacks or schemes, making them look weak and ineffective."),
        ("Intimidate", "Uses physical presence, size, or brute force to scare away the target’s active supporters."),
        ("Filibuster", "Endlessly stalls a critical process, meeting, or law to prevent the target from acting."),
        ("Bully", "Physically roughs up, threatens, or harasses the target or their direct subordinates."),
        ("Capture", "Takes the target’s close ally hostage by physically overpowering and detaining them."),
        ("Break", "Destroys a critical physical barrier, gate, or door protecting the target's sanctuary."),
        ("Infect", "Sends a sick agent or vector to bring a debilitating disease into the target’s safe house."),
    ),
    AbilityName.FIGHT: _forms(
        ("Assassinate", "Targets and kills a specific valuable ally, advisor, or lieutenant of the target."),
        ("Raid", "Hits a key resource cache, destroys its contents, and retreats before help can arrive."),
        ("Ambush", "Sets a physical trap to attack the target or their convoy while they are traveling."),
        ("Siege", "Completely surrounds the target’s primary base to prevent escape or resupply."),
        ("Duel", "Challenges the target to a formal, single combat to humiliate, wound, or execute them."),
        ("Skirmish", "Harasses the target’s active forces to lower their morale and waste their valuable supplies."),
        ("Capture Asset", "Seizes a powerful weapon, vehicle, mount, or physical territory by direct force."),
        ("Destroy Defenses", "Blows up, burns down, or hacks through defensive walls, shields, or security gates."),
        ("Suppression", "Pins the target down under heavy fire or containment, preventing them from moving."),
        ("Execution", "Publicly executes a captured prisoner or ally of the target to send a warning."),
    ),
    AbilityName.IMPRESS: _forms(
        ("Denounce", "Publicly condemns the target in front of peers, completely ruining their reputation."),
        ("Scandal", "Leaks a deeply shameful, private secret (whether true or false) to the public."),
        ("Excommunicate", "Strips the target of their rank, title, noble status, or organization membership."),
        ("Steal Glory", "Takes credit for the target’s achievements, inventions, or successful missions."),
        ("Turn the Mob", "Incites a massive riot, protest, or labor strike directly against the target."),
        ("Snub", "Publicly ignores or insults the target in a social setting to lower their standing."),
        ("Poach", "Convinces the target’s followers, employees, or patrons to switch sides and join them."),
        ("Mock", "Creates popular art, songs, or propaganda that makes the target a laughingstock."),
        ("Embargo", "Uses social or political influence to keep others from trading or negotiating with the target."),
        ("Frame", "Sets the target up to take the fall for a crime, conspiracy, or massive social faux pas."),
    ),
    AbilityName.MOVE: _forms(
        ("Theft", "Steals a crucial item, weapon, document, or piece of evidence from the target's possession."),
        ("Sabotage", "Breaks a key vehicle, transport, or machine so it fails at a critical moment."),
        ("Infiltrate", "Breaches the target’s secure perimeter to spy on them, plant bugs, or copy files."),
        ("Kidnap", "Snatches a vulnerable person, family member, or ally close to the target."),
        ("Plant Contraband", "Hides illegal items, drugs, or weapons on the target to get them arrested."),
        ("Escape", "Brilliantly breaks out of the target’s custody, making the target look completely incompetent."),
        ("Stalk", "Follows and watches the target constantly to induce paranoia, fear, and exhaustion."),
        ("Waylay", "Mugs or ambushes a courier carrying vital messages, money, or goods meant for the target."),
        ("Trespass", "Leaves a symbolic calling card or threat directly inside the target’s private bedroom."),
        ("Assault", "Launches a surprise physical attack from the shadows, air vents, or rafters."),
    ),
}

FAVORS: dict[AbilityName, tuple[Form, ...]] = {
    AbilityName.CHANNEL: _forms(
        ("Bestow Blessing", "Grants supernatural luck, favor, or a useful enchantment on their ally."),
        ("Bind Foe", "Uses supernatural power to bind, hold, or hinder an enemy threatening their ally."),
        ("Scry", "Uses supernatural sight to spy on a target or location their ally is currently scouting."),
        ("Supernatural Healing", "Cures an ally's active wound, lingering disease, or magical curse."),
        ("Summon Guardian", "Calls forth a spirit, drone, or sentinel entity to protect or serve their ally."),
        ("Create Ward", "Places a mystical or technological seal of protection over the ally, their home, or base."),
        ("Alter Fate", "Subtly bends probability or reality to help the ally succeed at a difficult task."),
        ("Send Vision", "Transmits a psychic message, warning, or prophecy across a great distance."),
        ("Purify", "Cleanses an object, location, or person of corruption, decay, or disease for their ally."),
        ("Imbue Item", "Temporarily enchants their ally's active weapon, tool, or vehicle with power."),
    ),
    AbilityName.ENDURE: _forms(
        ("Interpose", "Physically or socially takes a blow, punishment, or consequence meant for their ally."),
        (
            "Bear the Load",
            "Carries, stashes, or transports heavy supplies, contraband, or burdens on behalf of their ally.",
        ),
        ("Stand Vigil", "Watches over their ally's physical interests, property, or person to protect them from harm."),
        (
            "Test the Path",
            "Risks their own safety to test a highly suspicious substance, trap, or dangerous path first.",
        ),
        (
            "Create Distraction",
            "Draws hostile enemy attention onto themselves to let their ally slip away or act unseen.",
        ),
        (
            "Provide Shelter",
            "Uses their resources or own body to shield their ally from the elements, physical harm, or searches.",
        ),
        ("Marathon Labor", "Works overtime to finish a grueling, exhausting task their ally needs completed."),
        ("Hold the Line", "Defends a critical chokepoint or delays an opponent to buy their ally valuable time."),
        ("Share Vitality", "Gives blood, physical energy, medicine, or life force to stabilize their dying ally."),
        ("Redirect Pursuit", "Leads a threat on an exhausting chase away from their ally's hiding place."),
    ),
    AbilityName.FIGHT: _forms(
        ("Remove Threat", "Kills, captures, or drives off an active enemy currently hunting their ally."),
        ("Training", "Spars with, trains, or drills their ally to improve their physical combat readiness."),
        (
            "Escort",
            "Physically guards or sends armed agents to protect their ally while moving through hostile territory.",
        ),
        ("Suppressing Fire", "Keeps an enemy force pinned down behind cover so their ally can safely maneuver."),
        ("Flank", "Attacks their ally’s enemy from an unexpected angle, breaking their line of defense."),
        ("Jailbreak", "Assaults a holding cell, prison transport, or fortress to free their captured ally."),
        ("Clear the Path", "Fights through a blockade, security sanction, or enemy lines to open a safe route."),
        ("Fortify Perimeter", "Sets up active physical defenses and barricades around their ally or their base."),
        ("Intimidate", "Threatens their ally's immediate rival with violence to force them to back down."),
        ("Capture Asset", "Seizes an enemy prisoner, vital item, or territory on behalf of their ally."),
    ),
    AbilityName.IMPRESS: _forms(
        ("Grant Access", "Uses high social rank, wealth, or fame to get their ally into a restricted area."),
        ("Vouch For", "Stakes their own reputation on their ally's trustworthiness, skill, or ability."),
        (
            "Draw Attention",
            "Uses a public spectacle, gossip, or theatrical display to cover their ally's covert actions.",
        ),
        (
            "Lend Authority",
            "Allows their ally to act under their banner, seal, or with the benefits of their organization.",
        ),
        ("Charm Rival", "Flirts with, entertains, or distracts an opponent to lower their guard."),
        ("Host Gathering", "Throws a lavish event to provide cover for their ally’s meeting or boost their cred."),
        ("Secure Invitation", "Gets their ally on the exclusive guest list for an elite event."),
        ("Quell the Mob", "Calms an angry crowd, riot, or challenges hostile reporting that threatens their ally."),
        ("Rally Support", "Inspires troops, followers, or public opinion to help their ally reach their goals."),
        ("Publicly Shame", "Humiliates their ally's enemy, ruining their social standing."),
    ),
    AbilityName.MOVE: _forms(
        (
            "Acquire Item",
            "Steals or obtains from the black market a necessary key, document, or object for their ally.",
        ),
        ("Run Message", "Delivers a physical message through a blockade, across lines, or to an obscure target."),
        ("Plant Evidence", "Places evidence or contraband on one of their ally's rivals to frame them."),
        ("Advance Scout", "Moves ahead to identify physical hazards, routes, or scout out a target's position."),
        ("Bypass Lock", "Picks a lock, hacks a door, or finds a back door to open a pathway for their ally."),
        ("Sabotage", "Discreetly breaks a machine, vehicle, or plan hindering their ally's progress."),
        ("Extraction", "Sneaks their ally out of a hostile, surrounded area without being seen."),
        ("Clean Scene", "Hides bodies, scrubs evidence, or cleans up a crime scene on behalf of their ally."),
        ("Shadow", "Tails a target to keep them away from their ally, relaying their movements and activities."),
        ("Infiltrate", "Gains entry to a secure facility to open the gates or case it from the inside for their ally."),
    ),
}


class Flavour(_Frozen):
    """A rolled Scheme or favour: the Ability it works through and the row of its table."""

    kind: Literal["scheme", "favor"]
    ability: AbilityName
    ability_faces: tuple[int, ...]
    face: int
    form: Form | None
    """None where the book prints no table for the Ability."""


def ability_for(face: int) -> AbilityName:
    """The Ability a d10 names (1 Channel … 10 Work)."""
    check_faces("ability", [face], 10)
    return ABILITY_BY_D10[face - 1]


def scheme_form(ability: AbilityName, face: int) -> Form | None:
    """Appendix F: the d10 row for a Scheme through this Ability."""
    check_faces("form", [face], 10)
    forms = SCHEMES.get(ability)
    return forms[face - 1] if forms else None


def favor_form(ability: AbilityName, face: int) -> Form | None:
    """Appendix G: the d10 row for Currying Favor through this Ability."""
    check_faces("form", [face], 10)
    forms = FAVORS.get(ability)
    return forms[face - 1] if forms else None


def roll_scheme(
    primary: AbilityName, secondary: AbilityName, dice: DiceSource, choice: AbilityName | None = None
) -> Flavour:
    """Appendix F: 2d10 name two Abilities; the Primary wins if named, then the Secondary, then
    the table's choice of the two (`choice`, or the first die when no choice is given)."""
    faces = dice.roll("scheme", 2, 10)
    named = [ability_for(face) for face in faces]
    if primary in named:
        ability = primary
    elif secondary in named:
        ability = secondary
    elif choice is None:
        ability = named[0]
    elif choice in named:
        ability = choice
    else:
        raise RuleViolation(
            f"the Scheme dice named {named[0].value.title()} and {named[1].value.title()}: "
            f"choose one of them, not {choice.value.title()}"
        )
    (face,) = dice.roll("form", 1, 10)
    return Flavour(
        kind="scheme", ability=ability, ability_faces=tuple(faces), face=face, form=scheme_form(ability, face)
    )


def roll_favor(primary: AbilityName, secondary: AbilityName, dice: DiceSource) -> Flavour:
    """Appendix G: a d10 picks the Ability (1-4 Primary, 5-7 Secondary, 8-10 a random one)."""
    (pick,) = dice.roll("favor", 1, 10)
    faces = [pick]
    if pick <= 4:
        ability = primary
    elif pick <= 7:
        ability = secondary
    else:
        (random_face,) = dice.roll("ability", 1, 10)
        faces.append(random_face)
        ability = ability_for(random_face)
    (face,) = dice.roll("form", 1, 10)
    return Flavour(kind="favor", ability=ability, ability_faces=tuple(faces), face=face, form=favor_form(ability, face))
