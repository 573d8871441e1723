# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AscendCompileSpec.atc_options (the pass-through of further atc options), dump_dir and
atc_timeout_s: checks, round trips through CompileSpecs, what atc gets, the dump folder, and an
end-to-end lowering on the emulator with pass-through options, compared with eager."""

from __future__ import annotations

import hashlib
import os
import shlex
import stat
import subprocess
from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import ascend_lowered_modules, assert_close, eager, named_data, seeded_inputs
from example_models import Mlp
from executorch.exir.backend.compile_spec_schema import CompileSpec

from executorch_ascend import AscendCompileSpec, CompileSpecError
from executorch_ascend.compile_spec import ENV_DUMP_DIR
from executorch_ascend.export import lower, save
from executorch_ascend.run import run_with_runtime
from executorch_ascend.serialization import blob
from executorch_ascend.toolchain import atc_options as table
from executorch_ascend.toolchain import cann
from executorch_ascend.toolchain.atc import Atc, ToolchainError, atc_command, compile_onnx

# --- the table ------------------------------------------------------------------------------


def test_the_table_names_every_option_of_canns_atc_once() -> None:
    # hicann/ge api/atc/atc_flags.cc defines 85 options (help included).
    groups = [set(table.PASS_THROUGH), set(table.OWNED), set(table.REFUSED)]
    assert sum(len(g) for g in groups) == len(table.ALL_ATC_OPTIONS) == 85
    assert not (groups[0] & groups[1] or groups[0] & groups[2] or groups[1] & groups[2])
    for name, option in table.PASS_THROUGH.items():
        assert (option.kind == "choice") == bool(option.values), name


# --- round trips ----------------------------------------------------------------------------


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "cfg" / "keep_dtype.cfg"
    path.parent.mkdir()
    path.write_text("OpType::MatMul\n")
    return path


def test_a_mapping_and_pairs_give_the_same_sorted_spec(config_file: Path) -> None:
    mapping = AscendCompileSpec(
        atc_options={"op_select_implmode": "high_precision", "enable_small_channel": 1}
    )
    pairs = AscendCompileSpec(
        atc_options=[("enable_small_channel", "1"), ("op_select_implmode", "high_precision")]
    )
    assert mapping == pairs and hash(mapping) == hash(pairs)
    assert mapping.atc_options == (
        ("enable_small_channel", "1"),
        ("op_select_implmode", "high_precision"),
    )


def test_round_trip_through_compile_specs(config_file: Path, tmp_path: Path) -> None:
    spec = AscendCompileSpec(
        atc_options={
            "keep_dtype": config_file,
            "optimization_switch": "pass_a:on;pass_b:off",
            "op_select_implmode": "high_performance",
            "optypelist_for_implmode": "MatMul,Add",
            "static_model_ops_lower_limit": -1,
        },
        dump_dir=tmp_path / "dumps",
        atc_timeout_s=12.5,
    )
    assert dict(spec.atc_options)["keep_dtype"] == str(config_file.resolve())
    assert spec.dump_dir == str(tmp_path / "dumps")
    specs = spec.to_compile_specs()
    values = {s.key: bytes(s.value).decode() for s in specs}
    assert values["atc_timeout_s"] == "12.5" and values["dump_dir"] == str(tmp_path / "dumps")
    assert AscendCompileSpec.from_compile_specs(specs) == spec


def test_defaults_are_not_recorded() -> None:
    keys = {s.key for s in AscendCompileSpec().to_compile_specs()}
    assert not {"atc_options", "dump_dir", "atc_timeout_s"} & keys
    assert AscendCompileSpec().atc_timeout_s == 600
    assert AscendCompileSpec.from_compile_specs(
        AscendCompileSpec(atc_timeout_s=30).to_compile_specs()
    ) == AscendCompileSpec(atc_timeout_s=30)


def test_the_new_fields_are_ahead_of_time_only() -> None:
    assert not {"atc_options", "dump_dir", "atc_timeout_s"} & set(blob.RUNTIME_COMPILE_SPECS)


def test_a_relative_file_path_is_taken_from_the_current_folder(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(config_file.parent)
    spec = AscendCompileSpec(atc_options={"fusion_switch_file": config_file.name})
    assert spec.atc_options == (("fusion_switch_file", str(config_file.resolve())),)


# --- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"op_select_impl_mode": "high_precision"},
            r"'op_select_impl_mode' is not an option of CANN's atc; did you mean "
            r"'op_select_implmode'",
        ),
        ({"keepdtype": "x"}, r"did you mean 'keep_dtype'"),
        ({"frobnicate": "1"}, r"'frobnicate' is not an option of CANN's atc \(docs/atc.md"),
        ({"--log": "info"}, r"without the leading dashes: 'log'"),
        ({"log": "loud"}, r"log='loud' is invalid: atc takes debug, info, warning, error, null"),
        ({"buffer_optimize": "l3"}, r"atc takes l1_optimize, l2_optimize, off_optimize"),
        ({"enable_small_channel": True}, r"takes text as on atc's command line"),
        ({"enable_small_channel": 2}, r"enable_small_channel='2' is invalid"),
        ({"allow_hf32": "yes"}, r"allow_hf32='yes' is invalid: atc takes true, false"),
        ({"log": 1.5}, r"takes text"),
        ({"aicore_num": ""}, r"needs a non-empty value on one line"),
        ({"aicore_num": "4\n--soc_version=x"}, r"needs a non-empty value on one line"),
        ({"static_model_ops_lower_limit": -2}, r"atc takes an integer >= -1"),
        ({"static_model_ops_lower_limit": "two"}, r"atc takes an integer >= -1"),
        ({"keep_dtype": "/nonexistent/keep.cfg"}, r"'/nonexistent/keep.cfg', which is not an"),
        ({"op_bank_path": "/nonexistent/bank"}, r"which is not an existing folder"),
        ({"log": Path("/tmp")}, r"does not name a file"),
        ({"optypelist_for_implmode": "MatMul"}, r"needs 'op_select_implmode' too"),
        ("log=info", r"a mapping \{name: value\} or \(name, value\) pairs"),
        ([("log", "info", "x")], r"entries must be \(name, value\) pairs"),
        ([("log", "info"), ("log", "error")], r"'log' is given twice"),
        ({1: "x"}, r"names are text"),
    ],
)
def test_bad_atc_options_are_refused_clearly(options: object, message: str) -> None:
    with pytest.raises(CompileSpecError, match=message):
        AscendCompileSpec(atc_options=options)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(table.OWNED))
def test_options_the_spec_owns_point_to_it(name: str) -> None:
    with pytest.raises(CompileSpecError, match=f"'{name}' is set by the compile spec: ") as info:
        AscendCompileSpec(atc_options={name: "1"})
    assert table.OWNED[name] in str(info.value)


@pytest.mark.parametrize("name", sorted(table.REFUSED))
def test_options_that_break_the_program_are_refused_with_the_reason(name: str) -> None:
    with pytest.raises(CompileSpecError, match=f"'{name}' cannot be passed through: ") as info:
        AscendCompileSpec(atc_options={name: "1"})
    assert table.REFUSED[name] in str(info.value)


def test_precision_mode_v2_replaces_the_default_precision_mode_only() -> None:
    AscendCompileSpec(atc_options={"precision_mode_v2": "mixed_float16"})
    with pytest.raises(CompileSpecError, match=r"both set, and atc takes one of them"):
        AscendCompileSpec(precision_mode="force_fp32", atc_options={"precision_mode_v2": "fp16"})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"atc_timeout_s": 0}, "atc_timeout_s must be a number of seconds > 0"),
        ({"atc_timeout_s": -5}, "atc_timeout_s"),
        ({"atc_timeout_s": True}, "atc_timeout_s"),
        ({"atc_timeout_s": "60"}, "atc_timeout_s"),
        ({"atc_timeout_s": float("inf")}, "atc_timeout_s"),
        ({"atc_timeout_s": float("nan")}, "atc_timeout_s"),
        ({"dump_dir": ""}, "dump_dir must be a non-empty folder path"),
        ({"dump_dir": 3}, "dump_dir"),
    ],
)
def test_bad_timeouts_and_dump_dirs_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(CompileSpecError, match=message):
        AscendCompileSpec(**kwargs)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (b"log=info", r"atc_options must be a JSON list of pairs"),
        (b'{"log": "info"}', r"atc_options must be a JSON list of \[name, value\]"),
        (b'[["log", 1]]', r"atc_options must be a JSON list of \[name, value\]"),
        (b'[["soc_version", "Ascend310P3"]]', r"is set by the compile spec"),
    ],
)
def test_from_compile_specs_checks_atc_options(value: bytes, message: str) -> None:
    with pytest.raises(CompileSpecError, match=message):
        AscendCompileSpec.from_compile_specs([CompileSpec("atc_options", value)])


def test_from_compile_specs_checks_the_timeout() -> None:
    with pytest.raises(CompileSpecError, match="atc_timeout_s must be a number"):
        AscendCompileSpec.from_compile_specs([CompileSpec("atc_timeout_s", b"ten")])
    with pytest.raises(CompileSpecError, match="atc_timeout_s must be a number of seconds > 0"):
        AscendCompileSpec.from_compile_specs([CompileSpec("atc_timeout_s", b"0")])


# --- what atc gets --------------------------------------------------------------------------

_FAKE = Atc(Path("/opt/atc"), "cann", "cann /opt/atc")


def test_pass_through_options_come_last_as_name_equals_value() -> None:
    spec = AscendCompileSpec(
        dynamic_batch_size=(1, 2),
        atc_options={"log": "info", "op_select_implmode": "high_precision"},
    )
    cmd = atc_command(_FAKE, spec, ["x"], [(-1, 4)], gear_options=["--dynamic_batch_size=1,2"])
    assert cmd[-3:] == [
        "--dynamic_batch_size=1,2",
        "--log=info",
        "--op_select_implmode=high_precision",
    ]
    assert "--precision_mode=must_keep_origin_dtype" in cmd


def test_precision_mode_v2_takes_precision_modes_place() -> None:
    spec = AscendCompileSpec(atc_options={"precision_mode_v2": "mixed_float16"})
    cmd = atc_command(_FAKE, spec, ["x"], [(2, 4)])
    assert "--precision_mode_v2=mixed_float16" in cmd
    assert not any(a.startswith("--precision_mode=") for a in cmd)


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


# A CANN-like atc whose .om holds its arguments and the content of the --keep_dtype file.
_RECORDING_ATC = """#!/bin/sh
keep=""
for a in "$@"; do case "$a" in --keep_dtype=*) keep="${a#--keep_dtype=}";; esac; done
{ printf '%s\\n' "$@"; echo ---; cat "$keep"; } > part.om
echo "ATC run success"
"""


def test_a_file_options_content_enters_the_compile(tmp_path: Path, config_file: Path) -> None:
    atc = _script(tmp_path / "bin" / "atc", _RECORDING_ATC)
    spec = AscendCompileSpec(
        toolchain="cann", atc_path=str(atc), atc_options={"keep_dtype": config_file}
    )
    first = compile_onnx(b"model", spec, [], []).om
    # atc runs in a temporary folder and reads a copy taken at compile time.
    assert b"--keep_dtype=atc_option_files/keep_dtype/keep_dtype.cfg\n" in first
    assert first.endswith(b"---\nOpType::MatMul\n")
    config_file.write_text("OpType::Add\n")
    second = compile_onnx(b"model", spec, [], []).om
    assert second.endswith(b"---\nOpType::Add\n") and second != first
    config_file.unlink()
    with pytest.raises(ToolchainError, match=r"'keep_dtype' names .*, which no longer exists"):
        compile_onnx(b"model", spec, [], [])


def test_a_timeout_names_the_option_and_dumps_what_atc_printed(tmp_path: Path) -> None:
    atc = _script(tmp_path / "bin" / "atc", "#!/bin/sh\necho compiling...\nexec sleep 60\n")
    spec = AscendCompileSpec(
        toolchain="cann", atc_path=str(atc), atc_timeout_s=0.5, dump_dir=str(tmp_path / "d")
    )
    with pytest.raises(ToolchainError, match=r"did not finish within 0.5 s") as info:
        compile_onnx(b"model", spec, [], [])
    assert "AscendCompileSpec.atc_timeout_s" in str(info.value)
    (folder,) = (tmp_path / "d").iterdir()
    assert (folder / "atc.log").read_text() == "compiling...\n"
    assert "# failed: atc (cann " in (folder / "atc_command.txt").read_text()


def test_a_failed_atc_still_dumps_its_inputs_and_log(tmp_path: Path, config_file: Path) -> None:
    atc = _script(tmp_path / "bin" / "atc", '#!/bin/sh\necho "E19999: no way" >&2\nexit 3\n')
    spec = AscendCompileSpec(
        toolchain="cann",
        atc_path=str(atc),
        atc_options={"fusion_switch_file": config_file},
        dump_dir=str(tmp_path / "dumps"),
    )
    with pytest.raises(ToolchainError, match="failed with exit code 3"):
        compile_onnx(b"the model", spec, ["x"], [(2, 3)])
    digest = hashlib.sha256(b"the model").hexdigest()
    folder = tmp_path / "dumps" / f"partition_0_{digest[:8]}"
    assert (folder / "part.onnx").read_bytes() == b"the model"
    assert (folder / "atc.log").read_text() == "E19999: no way\n"
    staged = folder / "atc_option_files" / "fusion_switch_file" / "keep_dtype.cfg"
    assert staged.read_text() == "OpType::MatMul\n"
    command = (folder / "atc_command.txt").read_text()
    content = hashlib.sha256(config_file.read_bytes()).hexdigest()
    assert f"# --fusion_switch_file: {config_file.resolve()} (sha256 {content})" in command
    assert "# failed: atc (cann" in command and not (folder / "part.om").exists()


def test_dump_folders_are_numbered(tmp_path: Path) -> None:
    atc = _script(tmp_path / "bin" / "atc", "#!/bin/sh\necho om > part.om\n")
    spec = AscendCompileSpec(toolchain="cann", atc_path=str(atc), dump_dir=str(tmp_path / "d"))
    for model in (b"a", b"b", b"a"):
        compile_onnx(model, spec, [], [])
    names = sorted(p.name for p in (tmp_path / "d").iterdir())
    a8, b8 = (hashlib.sha256(m).hexdigest()[:8] for m in (b"a", b"b"))
    assert names == [f"partition_0_{a8}", f"partition_1_{b8}", f"partition_2_{a8}"]


def test_an_unwritable_dump_dir_fails_the_lowering(tmp_path: Path) -> None:
    atc = _script(tmp_path / "bin" / "atc", "#!/bin/sh\necho om > part.om\n")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    spec = AscendCompileSpec(toolchain="cann", atc_path=str(atc), dump_dir=str(blocker))
    with pytest.raises(ToolchainError, match="could not dump the partition into"):
        compile_onnx(b"m", spec, [], [])


# --- on the emulator ------------------------------------------------------------------------


@pytest.mark.emulator
def test_the_emulators_atc_knows_every_option_of_canns_atc(native) -> None:
    """Each of CANN's options is implemented, accepted with no effect, or refused by name as not
    emulated: never 'unknown' (docs/atc.md). Each name is given in full: a prefix could be
    ambiguous, as with CANN's getopt."""
    emulator = cann.find_emulator()
    assert emulator is not None
    for name in sorted(table.ALL_ATC_OPTIONS - {"help"}):
        done = subprocess.run(
            [str(emulator.atc), "--mode=3", f"--{name}=1"], capture_output=True, text=True
        )
        assert done.returncode == 255, (name, done.returncode)  # CANN's atc: -1 from main
        assert "unknown" not in done.stderr, (name, done.stderr)


_EMULATED_OPTIONS = {
    "precision_mode_v2": "origin",
    "op_select_implmode": "high_precision",
    "optypelist_for_implmode": "MatMul,Softmax",
    "enable_small_channel": "1",
    "buffer_optimize": "l2_optimize",
    "log": "info",
}


@pytest.mark.emulator
def test_lowering_with_pass_through_options_matches_eager_and_dumps(
    native, tmp_path: Path, config_file: Path
) -> None:
    torch.manual_seed(0)
    model, inputs = Mlp().eval(), seeded_inputs((4, 32))
    options = {**_EMULATED_OPTIONS, "fusion_switch_file": config_file}
    dumps = tmp_path / "dumps"
    spec = AscendCompileSpec(toolchain="emulator", atc_options=options, dump_dir=str(dumps))
    lowering = lower(model, inputs, spec)
    (module,) = ascend_lowered_modules(lowering.edge)
    stored = {s.key: bytes(s.value).decode() for s in module.compile_specs}
    assert AscendCompileSpec.from_compile_specs(module.compile_specs) == spec
    assert '["precision_mode_v2", "origin"]' in stored["atc_options"]
    om = named_data(module, blob.decode(module.processed_bytes).om_key)

    # The dump: what atc got and gave; its .om is the program's.
    (folder,) = dumps.iterdir()
    digest = hashlib.sha256((folder / "part.onnx").read_bytes()).hexdigest()
    assert folder.name == f"partition_0_{digest[:8]}"
    assert (folder / "part.om").read_bytes() == om
    onnx.checker.check_model(str(folder / "part.onnx"), full_check=True)
    log = (folder / "atc.log").read_text()
    (noted,) = [n for n in log.splitlines() if "no effect on the emulator's computation" in n]
    assert "--op_select_implmode=high_precision" in noted and "--fusion_switch_file=" in noted
    assert "ATC run success" in log
    command = (folder / "atc_command.txt").read_text().splitlines()
    (line,) = [c for c in command if not c.startswith("#")]
    args = shlex.split(line)
    assert "--model=part.onnx" in args and "--precision_mode_v2=origin" in args
    assert command[-1] == "# succeeded"

    # The command runs again in the dump folder and writes the same .om.
    (folder / "part.om").unlink()
    subprocess.run(args, cwd=folder, check=True, capture_output=True)
    assert (folder / "part.om").read_bytes() == om

    # Dumping changes nothing compiled; the runtime reads the program's compile specs as usual.
    plain = lower(model, inputs, AscendCompileSpec(toolchain="emulator", atc_options=options))
    (plain_module,) = ascend_lowered_modules(plain.edge)
    assert plain_module.processed_bytes == module.processed_bytes
    assert named_data(plain_module, blob.decode(plain_module.processed_bytes).om_key) == om
    pte, _ = save(lowering.program, tmp_path / "m.pte")
    assert_close(run_with_runtime(pte, inputs), eager(model, inputs), "pass-through options")


@pytest.mark.emulator
def test_the_environment_variable_dumps_every_partition(
    native, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_end_to_end import SinInTheMiddle  # two Ascend partitions

    monkeypatch.setenv(ENV_DUMP_DIR, str(tmp_path / "env-dumps"))
    model, inputs = SinInTheMiddle().eval(), seeded_inputs((3, 12), (3, 24))
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    modules = ascend_lowered_modules(lowering.edge)
    folders = sorted((tmp_path / "env-dumps").iterdir())
    assert [f.name.rsplit("_", 1)[0] for f in folders] == ["partition_0", "partition_1"]
    oms = {named_data(m, blob.decode(m.processed_bytes).om_key) for m in modules}
    assert {(f / "part.om").read_bytes() for f in folders} == oms
    # Nothing about the dump is recorded in the program.
    assert all("dump_dir" not in {s.key for s in m.compile_specs} for m in modules)


@pytest.mark.emulator
def test_an_option_the_emulator_does_not_emulate_is_refused_by_name(
    native, tmp_path: Path, config_file: Path
) -> None:
    spec = AscendCompileSpec(toolchain="emulator", atc_options={"modify_mixlist": config_file})
    with pytest.raises(
        ToolchainError,
        match=r"--modify_mixlist is an option of CANN's atc that "
        r"the emulator does not emulate",
    ):
        lower(Mlp().eval(), seeded_inputs((4, 32)), spec)


@pytest.mark.emulator
def test_hif8_precision_v2_is_not_emulated(native) -> None:
    # fp16, mixed_float16, ... are emulated (docs/atc.md "Precision modes"); HiFloat8 is not.
    spec = AscendCompileSpec(toolchain="emulator", atc_options={"precision_mode_v2": "mixed_hif8"})
    with pytest.raises(ToolchainError, match=r"--precision_mode_v2=mixed_hif8 is not emulated"):
        lower(Mlp().eval(), seeded_inputs((4, 32)), spec)


def test_dump_dir_from_the_environment_is_used_only_without_the_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV_DUMP_DIR, "/env/dumps")
    assert AscendCompileSpec().effective_dump_dir == "/env/dumps"
    assert AscendCompileSpec(dump_dir="/mine").effective_dump_dir == "/mine"
    monkeypatch.setenv(ENV_DUMP_DIR, "")
    assert AscendCompileSpec().effective_dump_dir is None
    assert os.environ[ENV_DUMP_DIR] == ""
