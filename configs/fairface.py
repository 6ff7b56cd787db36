"""fairface with the paper's protocol: ImageNet-pretrained ResNet-18 at 224 px, batch 256, 100 epochs,
early stopping after 10 epochs without improvement of validation loss or acc. The argument
names the method (default erm). Put the data where data/README.md says and the torchvision
ResNet-18 weights at weights/resnet18.pth (or point the config elsewhere):

    python -m nhfair_jax.run --config configs/fairface.py:erm --workdir runs/erm_fairface \
        --config.data.root=data/fairface --config.model.pretrained_path=weights/resnet18.pth
    python -m nhfair_jax.run --config configs/fairface.py:gapreg --workdir runs/gapreg_fairface ...
"""

from nhfair_jax.config import real_data_config


def get_config(method: str = "erm"):
    return real_data_config("fairface", "data/fairface", utility="acc", method=method or "erm")
