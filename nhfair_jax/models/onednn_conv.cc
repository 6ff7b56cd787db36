// oneDNN's 2-D convolution as three XLA FFI handlers: forward, backward data, backward weights.
//
// Built on first use by nhfair_jax/models/onednn.py (g++, the oneDNN headers and library of the
// `onednn` extra, XLA's FFI headers from jaxlib) and called through jax.ffi. Layouts are JAX's:
// activations NHWC, kernels HWIO, float32. Each handler builds its oneDNN primitive once per
// geometry (cached, under a mutex) and executes it on the buffers XLA hands it, without copies;
// only the backward passes, whose fastest kernels want oneDNN's blocked weight layout, reorder
// the kernel (or its gradient) from / to HWIO (a reorder primitive made with theirs). Scratch
// memory and streams are per calling thread, so XLA may run several convolutions at once.
//
// Attributes: strides (sh, sw) and explicit paddings (pt, pb, pl, pr), as lax.conv takes them.

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;
using dnnl::memory;
using Tag = dnnl::memory::format_tag;
using Dt = dnnl::memory::data_type;

namespace {

dnnl::engine& Engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

struct Geometry {
  int64_t n, h, w, c;     // input, NHWC
  int64_t kh, kw, o;      // kernel, HWIO (c input channels)
  int64_t ho, wo;         // output map
  int64_t sh, sw, pt, pb, pl, pr;
  auto key(int kind) const {
    return std::make_tuple(kind, n, h, w, c, kh, kw, o, ho, wo, sh, sw, pt, pb, pl, pr);
  }
};

memory::desc Activations(int64_t n, int64_t c, int64_t h, int64_t w) {
  return memory::desc({n, c, h, w}, Dt::f32, Tag::nhwc);
}
memory::desc Input(const Geometry& g) { return Activations(g.n, g.c, g.h, g.w); }
memory::desc Output(const Geometry& g) { return Activations(g.n, g.o, g.ho, g.wo); }
memory::desc Kernel(const Geometry& g, Tag tag) {
  return memory::desc({g.o, g.c, g.kh, g.kw}, Dt::f32, tag);
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

dnnl::convolution_forward::primitive_desc ForwardDesc(const Geometry& g) {
  return dnnl::convolution_forward::primitive_desc(
      Engine(), dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, Input(g),
      Kernel(g, Tag::hwio), Output(g), {g.sh, g.sw}, {g.pt, g.pl}, {g.pb, g.pr},
      UserScratchpad());
}

struct Cached {
  dnnl::primitive primitive;
  memory::desc scratchpad;
  memory::desc kernel;  // the layout the primitive reads (or writes) the kernel in
  std::string impl;
  dnnl::primitive reorder;  // HWIO to / from `kernel`, where they differ (backward passes)
  bool reorders = false;
};

// The reorder between HWIO and the layout a backward primitive wants, made once with it.
void AddReorder(Cached& c, const Geometry& g, bool to_hwio) {
  memory::desc hwio = Kernel(g, Tag::hwio);
  if (c.kernel == hwio) return;
  c.reorders = true;
  const memory::desc& from = to_hwio ? c.kernel : hwio;
  const memory::desc& to = to_hwio ? hwio : c.kernel;
  c.reorder = dnnl::reorder(dnnl::reorder::primitive_desc(Engine(), from, Engine(), to));
}

std::mutex cache_mutex;
std::map<decltype(Geometry{}.key(0)), std::shared_ptr<Cached>> cache;

template <typename Make>
std::shared_ptr<Cached> Lookup(int kind, const Geometry& g, Make make) {
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto key = g.key(kind);
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  auto made = std::make_shared<Cached>(make());
  cache.emplace(key, made);
  if (std::getenv("NHFAIR_ONEDNN_VERBOSE") != nullptr) {
    std::fprintf(stderr, "nhfair onednn: kind %d, %ldx%ldx%ldx%ld * %ldx%ldx%ld -> %s\n", kind,
                 (long)g.n, (long)g.h, (long)g.w, (long)g.c, (long)g.kh, (long)g.kw, (long)g.o,
                 made->impl.c_str());
  }
  return made;
}

// Scratch memory for the calling thread (XLA may run convolutions on several threads at once):
// slot 0 for the primitive's scratchpad, slot 1 for a reordered kernel.
memory Scratch(const memory::desc& desc, int slot = 0) {
  thread_local std::vector<char> buffers[2];
  std::vector<char>& buffer = buffers[slot];
  if (buffer.size() < desc.get_size()) buffer.resize(desc.get_size());
  return memory(desc, Engine(), buffer.data());
}

dnnl::stream& Stream() {
  thread_local dnnl::stream stream(Engine());
  return stream;
}

// A backward primitive (data or weights) with the kernel in the layout it prefers, and the
// reorder from / to HWIO where that layout is another.
template <typename Prim, typename KernelDesc>
Cached Backward(const Geometry& g, KernelDesc kernel_desc, bool to_hwio) {
  typename Prim::primitive_desc pd(Engine(), dnnl::algorithm::convolution_direct, Input(g),
                                   Kernel(g, Tag::any), Output(g), {g.sh, g.sw}, {g.pt, g.pl},
                                   {g.pb, g.pr}, ForwardDesc(g), UserScratchpad());
  Cached c{Prim(pd), pd.scratchpad_desc(), kernel_desc(pd), pd.impl_info_str()};
  AddReorder(c, g, to_hwio);
  return c;
}

template <typename Body>
ffi::Error Guarded(Body body) {
  try {
    body();
  } catch (const std::exception& e) {
    return ffi::Error(ffi::ErrorCode::kInternal, std::string("oneDNN convolution: ") + e.what());
  }
  return ffi::Error::Success();
}

Geometry Make(ffi::Span<const int64_t> x, ffi::Span<const int64_t> k, ffi::Span<const int64_t> y,
              int64_t sh, int64_t sw, int64_t pt, int64_t pb, int64_t pl, int64_t pr) {
  return Geometry{x[0], x[1], x[2], x[3], k[0], k[1], k[3], y[1], y[2], sh, sw, pt, pb, pl, pr};
}

ffi::Error Forward(ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> k, ffi::ResultBuffer<ffi::F32> y,
                   int64_t sh, int64_t sw, int64_t pt, int64_t pb, int64_t pl, int64_t pr) {
  return Guarded([&] {
    Geometry g = Make(x.dimensions(), k.dimensions(), y->dimensions(), sh, sw, pt, pb, pl, pr);
    auto p = Lookup(0, g, [&] {
      auto pd = ForwardDesc(g);
      return Cached{dnnl::convolution_forward(pd), pd.scratchpad_desc(), pd.weights_desc(),
                    pd.impl_info_str()};
    });
    dnnl::stream& stream = Stream();
    memory xm(Input(g), Engine(), x.typed_data());
    memory km(Kernel(g, Tag::hwio), Engine(), k.typed_data());
    memory ym(Output(g), Engine(), y->typed_data());
    p->primitive.execute(stream, {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, km}, {DNNL_ARG_DST, ym},
                                  {DNNL_ARG_SCRATCHPAD, Scratch(p->scratchpad)}});
    stream.wait();
  });
}

// dx = the input gradient, from dy and the kernel.
ffi::Error BackwardData(ffi::Buffer<ffi::F32> dy, ffi::Buffer<ffi::F32> k,
                        ffi::ResultBuffer<ffi::F32> dx, int64_t sh, int64_t sw, int64_t pt,
                        int64_t pb, int64_t pl, int64_t pr) {
  return Guarded([&] {
    Geometry g = Make(dx->dimensions(), k.dimensions(), dy.dimensions(), sh, sw, pt, pb, pl, pr);
    auto p = Lookup(1, g, [&] {
      using Prim = dnnl::convolution_backward_data;
      return Backward<Prim>(g, [](const Prim::primitive_desc& pd) { return pd.weights_desc(); },
                            /*to_hwio=*/false);
    });
    dnnl::stream& stream = Stream();
    memory dxm(Input(g), Engine(), dx->typed_data());
    memory km(Kernel(g, Tag::hwio), Engine(), k.typed_data());
    memory dym(Output(g), Engine(), dy.typed_data());
    memory used = km;
    if (p->reorders) {
      used = Scratch(p->kernel, 1);
      p->reorder.execute(stream, {{DNNL_ARG_FROM, km}, {DNNL_ARG_TO, used}});
    }
    p->primitive.execute(stream, {{DNNL_ARG_DIFF_SRC, dxm}, {DNNL_ARG_WEIGHTS, used},
                                  {DNNL_ARG_DIFF_DST, dym},
                                  {DNNL_ARG_SCRATCHPAD, Scratch(p->scratchpad)}});
    stream.wait();
  });
}

// dk = the kernel gradient, from the input and dy.
ffi::Error BackwardWeights(ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> dy,
                           ffi::ResultBuffer<ffi::F32> dk, int64_t sh, int64_t sw, int64_t pt,
                           int64_t pb, int64_t pl, int64_t pr) {
  return Guarded([&] {
    Geometry g = Make(x.dimensions(), dk->dimensions(), dy.dimensions(), sh, sw, pt, pb, pl, pr);
    auto p = Lookup(2, g, [&] {
      using Prim = dnnl::convolution_backward_weights;
      return Backward<Prim>(
          g, [](const Prim::primitive_desc& pd) { return pd.diff_weights_desc(); },
          /*to_hwio=*/true);
    });
    dnnl::stream& stream = Stream();
    memory xm(Input(g), Engine(), x.typed_data());
    memory dkm(Kernel(g, Tag::hwio), Engine(), dk->typed_data());
    memory dym(Output(g), Engine(), dy.typed_data());
    memory used = p->reorders ? Scratch(p->kernel, 1) : dkm;
    p->primitive.execute(stream, {{DNNL_ARG_SRC, xm}, {DNNL_ARG_DIFF_WEIGHTS, used},
                                  {DNNL_ARG_DIFF_DST, dym},
                                  {DNNL_ARG_SCRATCHPAD, Scratch(p->scratchpad)}});
    if (p->reorders) p->reorder.execute(stream, {{DNNL_ARG_FROM, used}, {DNNL_ARG_TO, dkm}});
    stream.wait();
  });
}

}  // namespace

#define NHFAIR_CONV_BINDING                                                          \
  ffi::Ffi::Bind()                                                                   \
      .Arg<ffi::Buffer<ffi::F32>>()                                                  \
      .Arg<ffi::Buffer<ffi::F32>>()                                                  \
      .Ret<ffi::Buffer<ffi::F32>>()                                                  \
      .Attr<int64_t>("sh")                                                           \
      .Attr<int64_t>("sw")                                                           \
      .Attr<int64_t>("pt")                                                           \
      .Attr<int64_t>("pb")                                                           \
      .Attr<int64_t>("pl")                                                           \
      .Attr<int64_t>("pr")

XLA_FFI_DEFINE_HANDLER_SYMBOL(nhfair_onednn_conv_forward, Forward, NHFAIR_CONV_BINDING);
XLA_FFI_DEFINE_HANDLER_SYMBOL(nhfair_onednn_conv_backward_data, BackwardData,
                              NHFAIR_CONV_BINDING);
XLA_FFI_DEFINE_HANDLER_SYMBOL(nhfair_onednn_conv_backward_weights, BackwardWeights,
                              NHFAIR_CONV_BINDING);
