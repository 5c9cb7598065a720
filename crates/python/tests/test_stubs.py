"""The type stubs (__init__.pyi) describe the module as it is: every function with the
parameters, kinds and defaults of its runtime signature, every class it exports."""

import ast
import inspect
from pathlib import Path

import planilla

STUBS = ast.parse((Path(planilla.__file__).parent / "__init__.pyi").read_text())


def stub_functions():
    return {node.name: node for node in STUBS.body if isinstance(node, ast.FunctionDef)}


def test_every_function_s_stub_has_its_runtime_signature():
    functions = stub_functions()
    assert set(functions) == {"check", "check_arrow", "convert", "fix", "games", "index", "iter_check", "merge"}
    for name, node in functions.items():
        runtime = inspect.signature(getattr(planilla, name)).parameters
        positional = [a.arg for a in node.args.args]
        keywords = [a.arg for a in node.args.kwonlyargs]
        assert positional + keywords == list(runtime), name
        assert all(runtime[a].kind == inspect.Parameter.KEYWORD_ONLY for a in keywords), name
        defaults = [ast.literal_eval(d) for d in node.args.kw_defaults]
        assert defaults == [runtime[a].default for a in keywords], name


def test_every_exported_name_has_a_stub():
    classes = {node.name for node in STUBS.body if isinstance(node, ast.ClassDef)}
    assert set(planilla.__all__) <= classes | set(stub_functions())
    assert (Path(planilla.__file__).parent / "py.typed").exists()
