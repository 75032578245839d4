/*
 * worker/nn/model_path.c — where the default model is (model.h,
 * hs_nn_default_model_path): $HYEONGSE_MODELS, else the source tree's
 * models/, else the installed share/hyeongse/models. The two built-in folders
 * come from CMake (HS_SOURCE_MODELS_DIR, HS_INSTALL_MODELS_DIR), so a build
 * run from its tree and an installed one both find the model without options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "worker/nn/model.h"

#ifndef HS_SOURCE_MODELS_DIR
#define HS_SOURCE_MODELS_DIR "models"
#endif
#ifndef HS_INSTALL_MODELS_DIR
#define HS_INSTALL_MODELS_DIR "/usr/local/share/hyeongse/models"
#endif

static int s_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir/HS_NN_DEFAULT_MODEL into buf: 0 when it exists, 1 when not, HS_ELIMIT. */
static int s_try(const char *dir, char *buf, size_t cap, hs_error_t *err)
{
    int n = snprintf(buf, cap, "%s/%s", dir, HS_NN_DEFAULT_MODEL);
    if (n < 0 || (size_t)n >= cap)
        return hs_error_set(err, HS_ELIMIT, "default model path %s/%s: too long", dir,
                            HS_NN_DEFAULT_MODEL);
    return s_is_file(buf) ? 0 : 1;
}

int hs_nn_default_model_path(char *buf, size_t cap, hs_error_t *err)
{
    /* A set HYEONGSE_MODELS is the only place looked: the user chose it, and a
     * model elsewhere silently used instead would be a surprise. */
    const char *env = getenv("HYEONGSE_MODELS");
    if (env && *env) {
        int rc = s_try(env, buf, cap, err);
        if (rc <= 0)
            return rc;
        return hs_error_set(err, HS_ENOTFOUND, "no default model: %s is not in "
                            "$HYEONGSE_MODELS (%s); give --net FILE, or put the model there",
                            HS_NN_DEFAULT_MODEL, env);
    }
    const char *dirs[] = {HS_SOURCE_MODELS_DIR, HS_INSTALL_MODELS_DIR};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        int rc = s_try(dirs[i], buf, cap, err);
        if (rc <= 0)
            return rc;
    }
    return hs_error_set(err, HS_ENOTFOUND, "no default model: %s is in none of %s, %s "
                        "(and HYEONGSE_MODELS is not set); give --net FILE, or set "
                        "HYEONGSE_MODELS to a folder holding it", HS_NN_DEFAULT_MODEL,
                        HS_SOURCE_MODELS_DIR, HS_INSTALL_MODELS_DIR);
}
