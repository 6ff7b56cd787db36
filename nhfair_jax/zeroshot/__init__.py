"""Zero-shot image-text models as rows of the benchmark: CLIP and BLIP-2 through the torch
bridge (`nhfair_jax.bridge.clip`), FairerCLIP and SFID on their embeddings, an embedding cache,
the captions table, and a run directory like a training run's (nhfair_jax.dispatch.run
evaluates a zero-shot config through `evaluate.evaluate_zeroshot`).

    python -m nhfair_jax.run --config configs/zeroshot.py:digitsb,clip \
        --config.model.path=/weights/clip-vit-base-patch16 --workdir runs/clip_digitsb

Importing this package needs neither torch nor transformers.
"""
