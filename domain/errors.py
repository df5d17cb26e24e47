"""The domain's own exceptions. Each carries a message fit to show a player."""


class DomainError(Exception):
    """A rule or a piece of data refuses what was asked."""


class InvalidSheet(DomainError):
    """A character file or sheet does not follow the documented format."""


class RuleViolation(DomainError):
    """The rules do not allow this action in the current state."""


class InvalidDice(DomainError):
    """Faces outside the die's range, or the wrong number of them."""


class UnknownName(DomainError):
    """A name (Star, Ability, …) that the campaign does not know."""


class AlreadyExists(DomainError):
    """A name that must be unique is taken."""


class InvalidText(DomainError):
    """A name or a text with a character, a length or a word it may not have (domain/text.py)."""
