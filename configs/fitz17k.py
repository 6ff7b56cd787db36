"""fitz17k with the paper's protocol: ImageNet-pretrained ResNet-18 at 224 px, batch 256, 100 epochs,
early stopping after 10 epochs without improvement of validation loss or auc. The argument
names the method (default erm). Put the data where data/README.md says and the torchvision
ResNet-18 weights at weights/resnet18.pth (or point the config elsewhere):

    python -m nhfair_jax.run --config configs/fitz17k.py:erm --workdir runs/erm_fitz17k \
        --config.data.root=data/fitzpatrick17k --config.model.pretrained_path=weights/resnet18.pth
    python -m nhfair_jax.run --config configs/fitz17k.py:gapreg --workdir runs/gapreg_fitz17k ...
"""

from nhfair_jax.config import real_data_config


def get_config(method: str = "erm"):
    return real_data_config("fitz17k", "data/fitzpatrick17k", utility="auc", method=method or "erm")
