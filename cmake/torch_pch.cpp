// Empty: the translation unit that compiles <torch/torch.h> into the precompiled header (cmake/BuildSpeed.cmake).
