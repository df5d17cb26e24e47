"""The domain's own exceptions. Each carries a message fit to show a player."""


class DomainError(Exception):
    """A rule or a piece of data refuses what was asked."""


class InvalidSheet(DomainError):
    """A character file or sheet does not follow the documented format."""


class RuleViolation(DomainError):
    """The rules do not allow this action in the current state."""


class InvalidDice(DomainError):
    """Faces outside the die's range, or the wrong number of them.

    `purpose` names the dice at fault when one purpose's dice are, so that a face (the CLI)
    can say which of its options held them without reading the message.
    """

    def __init__(self, message: str, *, purpose: str | None = None) -> None:
        super().__init__(message)
        self.purpose = purpose


class FaceCountMismatch(InvalidDice):
    """The table gave a purpose more or fewer faces than the roll asked for.

    The message names the dice by purpose and the option as `--purpose`; a face whose
    options are named otherwise words it again with `told`.
    """

    def __init__(self, purpose: str, *, given: int, rolled: int) -> None:
        self.given = given
        self.rolled = rolled
        super().__init__(self.told(purpose, "--" + purpose.replace("_", "-")), purpose=purpose)

    def told(self, dice: str, option: str) -> str:
        """The message, naming the dice `dice` and the option that held their faces `option`."""
        if self.rolled > self.given:
            return (
                f"the roll needs {self.rolled} {dice} {'die' if self.rolled == 1 else 'dice'} "
                f"but {self.given} {'was' if self.given == 1 else 'were'} given ({option})"
            )
        return f"{self.given} {dice} faces were given but the roll used {self.rolled} ({option})"


class UnknownName(DomainError):
    """A name (Star, Ability, …) that the campaign does not know."""


class AlreadyExists(DomainError):
    """A name that must be unique is taken."""


class InvalidText(DomainError):
    """A name or a text with a character, a length or a word it may not have (domain/text.py)."""
