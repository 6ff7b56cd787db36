"""FIS on CelebA, the example most users meet first.

The NH-Fair protocol's CelebA setting: target Wavy_Hair, sensitive attribute Male, a random
8:1:1 split, ImageNet-pretrained ResNet-18 at 224 px, batch 256, up to 100 epochs with early
stopping after 10. FIS starts from 10% of the training set labelled and, after six epochs on it,
labels up to as many pool examples as validation holds every epoch (the benchmark code's
schedule): those whose influence on validation accuracy is not harmful and whose influence on
the validation equal-opportunity gap is the most improving. Group labels are read from the
validation set only.

    python -m nhfair_jax.run --config configs/fis_celeba.py --workdir runs/fis_celeba \
        --config.data.root=/data/celeba --config.model.pretrained_path=/weights/resnet18.pth
"""

from nhfair_jax.config import real_data_config


def get_config():
    c = real_data_config("celeba", "data/celeba", method="fis", label_ratio=0.1,
                         constraint="eop")
    c.data.target = "Wavy_Hair"
    c.data.sensitive = "Male"
    return c
