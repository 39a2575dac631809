"""A model value in a tuning's space: a number worked out from the setting's values, so that a
spec can tie two model values together (`slip = "0.03 * (1.0 / {pace}) ** 2"`: a faster call,
more slips, as the spec assumes) and tune them as one. Numbers, + - * / ** and parentheses only:
a spec is data, never code that runs."""

import ast
import math
import operator

from simkit.core.errors import SimkitError

OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
       ast.Pow: operator.pow}
MOST_POWER = 64  # the largest exponent allowed: 10 ** 10 ** 10 would never end


def evaluate(text: str) -> float:
    """The value of `text` (placeholders already filled in); one error line if it is not
    arithmetic on numbers or has no finite value."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
        value = _value(tree.body, text)
    except SyntaxError:
        raise SimkitError(f"{text!r} is not arithmetic (numbers, + - * / ** and parentheses)") from None
    except (ZeroDivisionError, OverflowError, ValueError) as e:
        raise SimkitError(f"{text!r} has no value ({e})") from None
    if isinstance(value, complex) or not math.isfinite(value):
        raise SimkitError(f"{text!r} has no finite real value")
    return float(value)


def _value(node: ast.AST, text: str) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        v = _value(node.operand, text)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in OPS:
        left, right = _value(node.left, text), _value(node.right, text)
        if isinstance(node.op, ast.Pow) and abs(right) > MOST_POWER:
            raise SimkitError(f"{text!r}: an exponent above {MOST_POWER}")
        return OPS[type(node.op)](left, right)
    raise SimkitError(f"{text!r} is not arithmetic (numbers, + - * / ** and parentheses)")
