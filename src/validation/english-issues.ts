import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

/**
 * Schemas built before the first stdout line use `zod/mini`: its code is a fraction of classic
 * zod's, which a CLI start would otherwise compile before it can say anything. Unlike classic
 * zod, mini installs no error messages, so every module that builds mini schemas imports this
 * one first: issues read "Invalid input: expected string, received number", not "Invalid input".
 */
config(en());
