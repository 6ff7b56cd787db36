"""celeba with the paper's protocol: ImageNet-pretrained ResNet-18 at 224 px, batch 256, 100 epochs,
early stopping after 10 epochs without improvement of validation loss or acc. The argument
names the method (default erm). Put the data where data/README.md says and the torchvision
ResNet-18 weights at weights/resnet18.pth (or point the config elsewhere):

    python -m nhfair_jax.run --config configs/celeba.py:erm --workdir runs/erm_celeba \
        --config.data.root=data/celeba --config.model.pretrained_path=weights/resnet18.pth
    python -m nhfair_jax.run --config configs/celeba.py:gapreg --workdir runs/gapreg_celeba ...
"""

from nhfair_jax.config import real_data_config


def get_config(method: str = "erm"):
    return real_data_config("celeba", "data/celeba", utility="acc", method=method or "erm")
