#include "nn/model_file.h"

#include "nn/features.h"
#include "nn/hdf5_file.h"
#include "util/version.h"

namespace mushroom::nn {

namespace {
constexpr const char* kFormat = "mushroom-model";
}  // namespace

void save_model(const Model& model, const std::string& path) {
  validate(model);
  try {
    write_hdf5_atomically(path, [&](Hdf5File& f) {
      f.set_attr("format", std::string(kFormat));
      f.set_attr("format_version", int64_t(kModelFormatVersion));
      f.set_attr("game", game_name(model.config.game));
      f.set_attr("feature_version", int64_t(feature_version_of(model.config)));
      f.set_attr("input_planes", int64_t(input_planes(model.config)));
      f.set_attr("blocks", int64_t(model.config.blocks));
      f.set_attr("channels", int64_t(model.config.channels));
      f.set_attr("policy_dim", int64_t(model.config.policy_dim));
      f.set_attr("value_hidden", int64_t(model.config.value_hidden));
      f.set_attr("mushroom_version", build_version());  // the build that wrote it
      for (const auto& [key, value] : model.metadata) f.set_attr("meta." + key, value);
      f.create_group("/weights");
      for (const auto& spec : tensor_specs(model.config)) {
        const Tensor& t = model.at(spec.name);
        std::vector<uint64_t> dims(t.shape.begin(), t.shape.end());
        f.write("/weights/" + spec.name, dims, t.data.data());
      }
    });
  } catch (const Hdf5Error& e) {
    throw ModelFileError(std::string("cannot save model: ") + e.what());
  }
}

Model load_model(const std::string& path) {
  try {
    Hdf5File f = Hdf5File::open_read(path);
    if (!f.has_attr("format") || f.attr_string("format") != kFormat)
      throw ModelFileError(path + ": not a mushroom model file (no format = \"" + kFormat + "\" attribute)");
    const int64_t version = f.attr_int("format_version");
    if (version != kModelFormatVersion)
      throw ModelFileError(path + ": model format version " + std::to_string(version) + ", this build reads " +
                           std::to_string(kModelFormatVersion));
    Model m;
    // Files from before BLOCKGAME have no game attribute: they are mushroom nets.
    if (f.has_attr("game")) m.config.game = parse_game_kind(f.attr_string("game"));
    // A net may keep an older layout of its game (a BLOCKGAME net, layout 1): it is read
    // as it is and fed the planes it was trained on.
    const int64_t features = f.attr_int("feature_version");
    const int newest = newest_feature_version(m.config.game);
    // -1 marks a version above the newest or below 1 (0 would mean "the newest").
    m.config.feature_version = features > 0 && features <= newest ? int(features) : -1;
    const int planes = input_planes(m.config);  // 0: a layout this build does not read
    if (planes == 0 || f.attr_int("input_planes") != planes)
      throw ModelFileError(path + ": feature layout version " + std::to_string(features) + " with " +
                           std::to_string(f.attr_int("input_planes")) + " planes; this build reads versions up to " +
                           std::to_string(newest) + " (" + std::to_string(game_shape(m.config.game).planes) +
                           " planes) for " + game_name(m.config.game));
    m.config.blocks = int(f.attr_int("blocks"));
    m.config.channels = int(f.attr_int("channels"));
    m.config.policy_dim = int(f.attr_int("policy_dim"));
    m.config.value_hidden = int(f.attr_int("value_hidden"));
    validate(m.config);
    for (const std::string& name : f.attr_names())
      if (name.rfind("meta.", 0) == 0) m.metadata[name.substr(5)] = f.attr_string(name);
    for (const std::string& name : f.list("/weights")) {
      std::vector<uint64_t> dims;
      Tensor t;
      t.data = f.read<float>("/weights/" + name, &dims);
      t.shape.assign(dims.begin(), dims.end());
      m.tensors.emplace(name, std::move(t));
    }
    validate(m);
    return m;
  } catch (const ModelFileError&) {
    throw;
  } catch (const Hdf5Error& e) {
    throw ModelFileError(e.what());
  } catch (const std::exception& e) {
    throw ModelFileError(path + ": " + e.what());
  }
}

}  // namespace mushroom::nn
