"""Tests for nhfair_jax.models.resnet: shapes, BatchNorm modes, torchvision weight loading."""

import functools
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.models.resnet import RESNETS, ResNet, load_torchvision_weights, resnet
from tests.helpers import need

FEATURE_WIDTH = {"resnet18": 512, "resnet34": 512, "resnet50": 2048, "resnet101": 2048}
# Parameter counts of torchvision.models.resnetXX() (1000 classes); matching them pins
# down the block layout, the downsample placement and the bottleneck expansion.
TORCHVISION_PARAMS = {
    "resnet18": 11_689_512, "resnet34": 21_797_672, "resnet50": 25_557_032, "resnet101": 44_549_160
}


# One input size and class count throughout, so later tests reuse the eager-op
# compilations of earlier ones (compilation, not arithmetic, dominates on CPU).
# 64x64 leaves layer4 at 2x2, so the global average pool really averages.
SIZE, NUM_CLASSES = 64, 3


def _init(model, size=SIZE, batch=2, seed=0):
    return model.init(jax.random.key(seed), jnp.zeros((batch, size, size, 3), jnp.float32))


def _abstract_init(model, size=SIZE, batch=2):
    """Shapes and dtypes of the variables, without paying for eager initialisation."""
    return jax.eval_shape(functools.partial(_init, model, size, batch))


def _random_variables(model, size=SIZE, batch=2, seed=0):
    """Variables of the right structure with He-scaled random kernels.

    Eager ``model.init`` compiles every initializer per shape (~10 s per block type on
    2 CPU cores); filling abstract shapes from numpy keeps the suite fast. Real
    ``init`` runs for ResNet-18; the other depths' ``init`` is traced in full by
    ``jax.eval_shape``.
    """
    rng = np.random.default_rng(seed)

    def fill(path, leaf):
        name = path[-1].key
        if name == "kernel":
            std = np.sqrt(2 / np.prod(leaf.shape[:-1]))
            return jnp.asarray(rng.normal(size=leaf.shape) * std, leaf.dtype)
        return jnp.full(leaf.shape, 1.0 if name in ("scale", "var") else 0.0, leaf.dtype)

    return jax.tree_util.tree_map_with_path(fill, _abstract_init(model, size, batch))


# Shallow before deep, so each depth reuses the eager-op compilations of the one before.
DEPTHS = ["resnet18", "resnet34", "resnet50", "resnet101"]


@pytest.mark.slow
@pytest.mark.parametrize("name", DEPTHS)
def test_param_count_matches_torchvision(name):
    shapes = _abstract_init(resnet(name, 1000), size=224, batch=1)
    assert sum(x.size for x in jax.tree.leaves(shapes["params"])) == TORCHVISION_PARAMS[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", DEPTHS)
def test_shapes_and_batch_stats(name):
    model = resnet(name, num_classes=NUM_CLASSES)
    assert isinstance(model, ResNet)
    variables = _init(model) if name == "resnet18" else _random_variables(model)
    x = jax.random.normal(jax.random.key(1), (2, SIZE, SIZE, 3))

    logits = model.apply(variables, x)
    assert logits.shape == (2, NUM_CLASSES)
    logits2, feats = model.apply(variables, x, features=True)
    assert feats.shape == (2, FEATURE_WIDTH[name])
    np.testing.assert_array_equal(logits, logits2)

    (train_logits, _), updates = model.apply(
        variables, x, train=True, features=True, mutable=["batch_stats"]
    )
    old, new = jax.tree.leaves(variables["batch_stats"]), jax.tree.leaves(updates["batch_stats"])
    assert len(old) == len(new) > 0
    for a, b in zip(old, new):
        assert not np.allclose(a, b), "every BatchNorm layer should update its running stats in train mode"
    # Train mode normalises with batch statistics, so the output must differ from eval mode.
    assert not np.allclose(train_logits, logits, atol=1e-3)

    # Eval mode must leave the running stats alone.
    _, eval_updates = model.apply(variables, x, train=False, mutable=["batch_stats"])
    for a, b in zip(old, jax.tree.leaves(eval_updates["batch_stats"])):
        np.testing.assert_array_equal(a, b)


@pytest.mark.slow
def test_running_stat_momentum_matches_torch():
    # torch momentum 0.1 == flax momentum 0.9: new = 0.9 * old + 0.1 * batch_mean.
    model = resnet("resnet18", NUM_CLASSES)
    variables = _random_variables(model)
    x = jax.random.normal(jax.random.key(2), (2, SIZE, SIZE, 3)) + 3.0
    _, updates = model.apply(variables, x, train=True, mutable=["batch_stats"])
    conv_out = jax.lax.conv_general_dilated(
        x, variables["params"]["conv1"]["kernel"], (2, 2), ((3, 3), (3, 3)),
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
    )
    want = 0.1 * conv_out.mean((0, 1, 2))  # the old running mean is 0
    np.testing.assert_allclose(updates["batch_stats"]["bn1"]["mean"], want, atol=1e-5)


def test_depths_cover_registry():
    assert sorted(DEPTHS) == sorted(RESNETS)


def test_unknown_name_lists_known():
    with pytest.raises(ValueError) as excinfo:
        resnet("resnet152", 2)
    for name in ("resnet152", "resnet18", "resnet34", "resnet50", "resnet101"):
        assert name in str(excinfo.value)


def test_missing_file(tmp_path):
    model = resnet("resnet18", 2)
    variables = _abstract_init(model)
    path = tmp_path / "nope.pth"
    with pytest.raises(FileNotFoundError) as excinfo:
        load_torchvision_weights(variables, path)
    msg = str(excinfo.value)
    assert str(path) in msg and "model.pretrained_path" in msg


def test_missing_torch_gives_install_hint(tmp_path, monkeypatch):
    path = tmp_path / "w.pth"
    path.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    with pytest.raises(ImportError, match=r"pip install 'nhfair-jax\[torch\]'"):
        load_torchvision_weights(_abstract_init(resnet("resnet18", 2)), path)


# --------------------------------------------------------------------------------------
# Comparison against a minimal torch ResNet with torchvision's state_dict key names.
# --------------------------------------------------------------------------------------


def _torch_resnet(torch, name, num_classes, width=64):
    nn = torch.nn

    class Basic(nn.Module):
        expansion = 1

        def __init__(self, cin, planes, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, planes, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU()
            self.downsample = None
            if stride != 1 or cin != planes:
                self.downsample = nn.Sequential(
                    nn.Conv2d(cin, planes, 1, stride, bias=False), nn.BatchNorm2d(planes)
                )

        def forward(self, x):
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return self.relu(y + (x if self.downsample is None else self.downsample(x)))

    class Bottle(nn.Module):
        expansion = 4

        def __init__(self, cin, planes, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, planes, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(planes * 4)
            self.relu = nn.ReLU()
            self.downsample = None
            if stride != 1 or cin != planes * 4:
                self.downsample = nn.Sequential(
                    nn.Conv2d(cin, planes * 4, 1, stride, bias=False), nn.BatchNorm2d(planes * 4)
                )

        def forward(self, x):
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.relu(self.bn2(self.conv2(y)))
            y = self.bn3(self.conv3(y))
            return self.relu(y + (x if self.downsample is None else self.downsample(x)))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            spec = RESNETS[name]
            block = Basic if spec["block"] == "basic" else Bottle
            self.conv1 = nn.Conv2d(3, width, 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.relu = nn.ReLU()
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            cin = width
            for i, n in enumerate(spec["stage_sizes"]):
                blocks = []
                for j in range(n):
                    blocks.append(block(cin, width * 2**i, 2 if i > 0 and j == 0 else 1))
                    cin = width * 2**i * block.expansion
                setattr(self, f"layer{i + 1}", nn.Sequential(*blocks))
            self.fc = nn.Linear(cin, num_classes)

        def features(self, x):
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return x.mean((2, 3))

        def forward(self, x):
            return self.fc(self.features(x))

    torch.manual_seed(0)
    net = Net()
    # Random affine and running stats, so the test sees whether scale/bias and mean/var
    # land in the right slots and whether eval mode uses the running averages.
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.0)
                m.bias.uniform_(-0.2, 0.2)
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 2.0)
                m.num_batches_tracked.fill_(7)
    return net.eval()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["resnet18", "resnet50"])
def test_matches_torch_eval(name, tmp_path):
    torch = need("torch")
    net = _torch_resnet(torch, name, NUM_CLASSES)
    assert "layer1.0.conv1.weight" in net.state_dict()
    path = tmp_path / f"{name}.pth"
    torch.save(net.state_dict(), path)

    model = resnet(name, NUM_CLASSES)
    init = _abstract_init(model)  # the loader needs only shapes and dtypes
    variables = load_torchvision_weights(init, path)
    assert jax.tree.structure(variables) == jax.tree.structure(init)

    x = np.random.default_rng(0).normal(size=(2, 3, SIZE, SIZE)).astype(np.float32)
    with torch.no_grad():
        want_logits = net(torch.from_numpy(x)).numpy()
        want_feats = net.features(torch.from_numpy(x)).numpy()
    logits, feats = model.apply(variables, jnp.asarray(x.transpose(0, 2, 3, 1)), features=True)
    assert np.abs(want_logits).max() > 0.1  # guards against a vacuous all-zero comparison
    np.testing.assert_allclose(np.asarray(logits), want_logits, atol=1e-4, rtol=0)
    np.testing.assert_allclose(np.asarray(feats), want_feats, atol=1e-4, rtol=0)


@pytest.mark.slow
def test_fc_class_mismatch_keeps_model_fc(tmp_path):
    torch = need("torch")
    net = _torch_resnet(torch, "resnet18", num_classes=1000)
    path = tmp_path / "imagenet.pth"
    torch.save(net.state_dict(), path)
    model = resnet("resnet18", NUM_CLASSES)
    init = _init(model)  # real initialisation: the kept fc must be the model's own

    variables = load_torchvision_weights(init, path)
    np.testing.assert_array_equal(variables["params"]["fc"]["kernel"], init["params"]["fc"]["kernel"])
    np.testing.assert_array_equal(variables["params"]["fc"]["bias"], init["params"]["fc"]["bias"])
    # Everything else still comes from the file.
    np.testing.assert_array_equal(
        variables["params"]["conv1"]["kernel"], net.conv1.weight.detach().numpy().transpose(2, 3, 1, 0)
    )
    np.testing.assert_array_equal(
        variables["batch_stats"]["layer4_1"]["bn2"]["var"], net.layer4[1].bn2.running_var.numpy()
    )

    with pytest.raises(ValueError, match=r"fc\.weight.*1000.*3"):
        load_torchvision_weights(init, path, skip_fc_if_mismatch=False)


def test_shape_mismatch_names_parameter(tmp_path):
    torch = need("torch")
    path = tmp_path / "narrow.pth"
    torch.save(_torch_resnet(torch, "resnet18", 2, width=32).state_dict(), path)
    init = _abstract_init(resnet("resnet18", 2))
    narrow = r"shape mismatch for [\w.]+: file has \(32[,)].*model expects \(64[,)]"
    with pytest.raises(ValueError, match=narrow):
        load_torchvision_weights(init, path)

    # A mismatch deep inside the network is reported by its own name, not a neighbour's.
    state = _torch_resnet(torch, "resnet18", 2).state_dict()
    state["layer3.1.bn2.running_var"] = torch.ones(17)
    torch.save(state, path)
    with pytest.raises(ValueError, match=r"layer3\.1\.bn2\.running_var.*\(17,\).*\(256,\)"):
        load_torchvision_weights(init, path)


@pytest.mark.slow
def test_missing_and_unused_keys(tmp_path):
    torch = need("torch")
    init = _abstract_init(resnet("resnet18", 2))
    path = tmp_path / "w.pth"

    state = _torch_resnet(torch, "resnet18", 2).state_dict()
    del state["layer2.0.downsample.1.running_mean"]
    torch.save(state, path)
    with pytest.raises(ValueError, match=r"layer2\.0\.downsample\.1\.running_mean.*missing"):
        load_torchvision_weights(init, path)

    # A ResNet-34 file shares every ResNet-18 key and shape; it must not half-load.
    torch.save(_torch_resnet(torch, "resnet34", 2).state_dict(), path)
    with pytest.raises(ValueError, match=r"does not use: layer1\.2\."):
        load_torchvision_weights(init, path)


@pytest.mark.slow
def test_wrapped_and_dataparallel_checkpoints_load_like_a_plain_state_dict(tmp_path):
    torch = need("torch")
    net = _torch_resnet(torch, "resnet18", NUM_CLASSES)
    plain = tmp_path / "plain.pth"
    wrapped = tmp_path / "wrapped.pth"
    torch.save(net.state_dict(), plain)
    torch.save({"epoch": 3, "state_dict": {f"module.{k}": v for k, v in
                                           net.state_dict().items()}}, wrapped)
    init = _abstract_init(resnet("resnet18", NUM_CLASSES))
    a = load_torchvision_weights(init, plain)
    b = load_torchvision_weights(init, wrapped)
    for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
