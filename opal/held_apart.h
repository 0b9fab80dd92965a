/* A member kept out of line and made on first write. Objects most of which never need it (the single
 * blocks among an indexed type's tens of thousands, next to the few loops and tables that hold other
 * nodes) then carry one pointer instead of the member itself; reading an absent one gives an empty T. */
#ifndef TESSERA_OPAL_HELD_APART_H
#define TESSERA_OPAL_HELD_APART_H

#include <memory>

namespace tessera::opal {

template <class T>
class HeldApart {
public:
    T &get()
    {
        if (!held_) {
            held_ = std::make_unique<T>();
        }
        return *held_;
    }
    const T &get() const
    {
        static const T none{};
        return held_ ? *held_ : none;
    }

private:
    std::unique_ptr<T> held_;
};

} // namespace tessera::opal

#endif
