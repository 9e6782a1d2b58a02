"""Value classes declared like dataclasses, built without generating code.

`@valueclass` reads a class written as for `@dataclass(frozen=True)`: annotated fields in
order, defaults, `field(default_factory=..., repr=False, compare=False)`, and an
optional `__post_init__`. It gives the class what the dataclass would: `__init__`
(positional or keyword arguments), `__repr__`, `__eq__` (same class, compared fields),
`__hash__` (frozen classes; unhashable otherwise) and, when frozen, attributes that
cannot be set or deleted (dataclasses.FrozenInstanceError). `replace(obj, **changes)`
and `fields(cls)` stand for dataclasses.replace and dataclasses.fields.

Why not `@dataclass`: it writes each class's methods as source text and compiles it,
~4 M instructions (1-2 ms) a class; the twenty-odd classes a render imports cost
more than a sheet's drawing. These methods are shared closures, made in microseconds.
Instances are a little slower to build (a render makes a few hundred); the classes
made in bulk by the batch scorer stay dataclasses.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, field
from operator import attrgetter

__all__ = ["field", "fields", "replace", "valueclass"]


def valueclass(cls=None, /, *, frozen: bool = True):
    """The class decorator (see the module's docstring); `@valueclass` or `@valueclass(frozen=False)`."""
    if cls is None:
        return lambda c: _build(c, frozen)
    return _build(cls, frozen)


def fields(cls) -> tuple[str, ...]:
    """The field names of a value class (or of an instance), in order."""
    return cls.__value_fields__


def replace(obj, /, **changes):
    """A copy of `obj` with the given fields changed (its class's __init__ runs again); of a
    value class's instance, or of a dataclass's (dataclasses.replace)."""
    names = getattr(type(obj), "__value_fields__", None)
    if names is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)
    unknown = [k for k in changes if k not in names]
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    return type(obj)(**{n: changes[n] if n in changes else getattr(obj, n) for n in names})


def _build(cls, frozen: bool):
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults, factories, hidden, ignored = {}, {}, set(), set()
    for name in names:
        given = cls.__dict__.get(name, MISSING)
        if isinstance(given, Field):
            if given.default is not MISSING:
                defaults[name] = given.default
            elif given.default_factory is not MISSING:
                factories[name] = given.default_factory
            if not given.repr:
                hidden.add(name)
            if not given.compare:
                ignored.add(name)
            if given.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, given.default)
        elif given is not MISSING:
            defaults[name] = given
        elif defaults or factories:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    shown = tuple(n for n in names if n not in hidden)
    compared = tuple(n for n in names if n not in ignored)
    post_init = getattr(cls, "__post_init__", None)
    title = cls.__qualname__
    count = len(names)

    def __init__(self, *args, **kwargs):  # noqa: N807
        if len(args) > count:
            raise TypeError(f"{title}.__init__() takes {count + 1} positional arguments but {len(args) + 1} were given")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k in values or k not in names:
                why = "got multiple values for argument" if k in values else "got an unexpected keyword argument"
                raise TypeError(f"{title}.__init__() {why} {k!r}")
            values[k] = v
        state = self.__dict__
        for n in names:
            if n in values:
                state[n] = values[n]
            elif n in defaults:
                state[n] = defaults[n]
            elif n in factories:
                state[n] = factories[n]()
            else:
                raise TypeError(f"{title}.__init__() missing required argument: {n!r}")
        if post_init is not None:
            self.__post_init__()

    def __repr__(self):  # noqa: N807
        return f"{title}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    # the compared fields as a tuple, compared and hashed as dataclasses do
    key = attrgetter(*compared) if len(compared) > 1 else lambda obj: tuple(getattr(obj, n) for n in compared)

    def __eq__(self, other):  # noqa: N807
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    cls.__init__, cls.__repr__, cls.__eq__ = __init__, __repr__, __eq__
    cls.__value_fields__ = names
    if frozen:

        def __hash__(self):  # noqa: N807
            return hash(key(self))

        def __setattr__(self, name, _):  # noqa: N807
            raise FrozenInstanceError(f"cannot assign to field {name!r}")

        def __delattr__(self, name):  # noqa: N807
            raise FrozenInstanceError(f"cannot delete field {name!r}")

        cls.__hash__, cls.__setattr__, cls.__delattr__ = __hash__, __setattr__, __delattr__
    else:
        cls.__hash__ = None
    for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        function = cls.__dict__.get(method)
        if callable(function):
            function.__qualname__ = f"{title}.{method}"
    return cls
