# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""PT2E quantization for Ascend: `AscendQuantizer` annotates a model the way CANN runs int8.

    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from executorch_ascend.quantizer import AscendQuantizer

    prepared = prepare_pt2e(torch.export.export(model, inputs).module(), AscendQuantizer())
    for batch in calibration: prepared(*batch)
    quantized = convert_pt2e(prepared)

docs/quantization.md says what each scheme becomes on each chip.
"""

from .ascend_quantizer import AscendQuantizer
from .config import AscendQuantizationConfig, get_ascend_quantization_config

__all__ = ["AscendQuantizationConfig", "AscendQuantizer", "get_ascend_quantization_config"]
