"""sheetgen.values builds classes that behave as the dataclasses they replace: each case
declares one class both ways and compares what they do."""

from __future__ import annotations

import dataclasses

import pytest

from sheetgen import values
from sheetgen.values import field, valueclass


def both(frozen: bool):
    """The same class as a dataclass and as a value class."""

    def declare(decorate):
        @decorate
        class Point:
            x: float
            y: float = 0.0
            tags: list = field(default_factory=list)
            note: str = field(default="", repr=False, compare=False)

        return Point

    return declare(dataclasses.dataclass(frozen=frozen)), declare(valueclass(frozen=frozen))


CALLS = [((1,), {}), ((1, 2), {}), ((), {"x": 1, "y": 2}), ((1,), {"note": "n", "tags": [3]}), ((1, 2, [4], "n"), {})]


@pytest.mark.parametrize("frozen", [True, False])
@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_value_class_is_built_and_shown_as_the_dataclass(frozen, args, kwargs):
    made = [cls(*args, **kwargs) for cls in both(frozen)]
    assert [vars(p) for p in made][0] == vars(made[1])
    assert list(vars(made[1])) == ["x", "y", "tags", "note"]  # in the fields' order
    assert repr(made[0]) == repr(made[1])


@pytest.mark.parametrize("frozen", [True, False])
def test_equality_and_hash_follow_the_compared_fields(frozen):
    for cls in both(frozen):
        a, b, c = cls(1, 2, (), "a"), cls(1, 2, (), "b"), cls(1, 3, ())
        assert a == b and a != c and a != (1, 2) and a != cls(1, 2)  # tags: () is not []
        if frozen:
            assert hash(a) == hash(b) == hash(cls(1, 2, (), "z"))
        else:
            with pytest.raises(TypeError):
                hash(a)
    data, value = both(frozen)
    assert data(1, 2) != value(1, 2)  # other classes are never equal


def test_a_frozen_value_cannot_be_changed():
    _, cls = both(True)
    p = cls(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        p.x = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
        del p.y
    q = both(False)[1](1)
    q.x = 2
    assert q.x == 2


def test_each_instance_gets_its_own_default_list():
    _, cls = both(False)
    a, b = cls(1), cls(2)
    a.tags.append(1)
    assert b.tags == []


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "missing required argument: 'x'"),
        ((1, 2, [], "", 5), {}, "takes 5 positional arguments but 6 were given"),
        ((1,), {"x": 2}, "got multiple values for argument 'x'"),
        ((1,), {"z": 2}, "got an unexpected keyword argument 'z'"),
    ],
)
def test_wrong_arguments_are_type_errors(args, kwargs, message):
    _, cls = both(True)
    with pytest.raises(TypeError, match=message):
        cls(*args, **kwargs)


def test_replace_and_fields():
    data, value = both(True)
    p = value(1, 2, [3], "n")
    q = values.replace(p, y=5)
    assert (q.x, q.y, q.tags, q.note) == (1, 5, [3], "n") and p.y == 2
    assert values.fields(value) == tuple(f.name for f in dataclasses.fields(data))
    with pytest.raises(TypeError, match="has no field 'z'"):
        values.replace(p, z=1)
    assert values.replace(data(1, 2), y=3) == data(1, 3)  # a dataclass's: dataclasses.replace


def test_post_init_runs_and_defaults_stay_class_attributes():
    @valueclass(frozen=False)
    class Score:
        breakdown: dict
        total: int | None = None

        def __post_init__(self):
            if self.total is None:
                self.total = sum(self.breakdown.values())

    assert Score({"a": 2, "b": 3}).total == 5
    assert values.replace(Score({"a": 1}, 7), breakdown={}).total == 7
    assert Score.total is None


def test_a_field_without_default_after_one_with_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):

        @valueclass
        class Bad:
            x: int = 0
            y: int
