"""The inline media types Gemini takes, per kind of part, each with its source (read by the
encoder, ``_parts._encode_media``, and shown in docs/guide/tools.md)."""

from __future__ import annotations

from interlingua.kit import MediaTypes

# The IANA names of formats Gemini lists under its own names (audio/mp3, video/mov, ...): the same
# bytes, named as ``MediaSource.from_path`` and most libraries name them.
_IANA = "IANA media types registry (https://www.iana.org/assignments/media-types/) for the same formats"

MEDIA_TYPES = {
    "image": MediaTypes(
        frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"}),
        "https://discuss.ai.google.dev/t/gemini-2-api-returns-invalid-parameter-error-for-gif-inputs/71468 "
        "(the supported image MIME types, from the vision guide: image/png, image/jpeg, image/webp, image/heic, "
        "image/heif; image/gif refused by Gemini 2.0)",
    ),
    "audio": MediaTypes(
        frozenset(
            {"audio/wav", "audio/mp3", "audio/aiff", "audio/aac", "audio/ogg", "audio/flac"}
            | {"audio/mpeg", "audio/x-wav", "audio/wave", "audio/x-aiff"}
        ),
        "https://ai.google.dev/gemini-api/docs/audio (supported audio formats: WAV audio/wav, MP3 audio/mp3, "
        f"AIFF audio/aiff, AAC audio/aac, OGG Vorbis audio/ogg, FLAC audio/flac); audio/mpeg, audio/x-wav, "
        f"audio/wave and audio/x-aiff: {_IANA}",
    ),
    "video": MediaTypes(
        frozenset(
            {"video/mp4", "video/mpeg", "video/mov", "video/avi", "video/x-flv", "video/mpg", "video/webm"}
            | {"video/wmv", "video/3gpp", "video/quicktime", "video/x-msvideo", "video/x-ms-wmv"}
        ),
        "https://ai.google.dev/gemini-api/docs/video-understanding (video/mp4, video/mpeg, video/mov, video/avi, "
        "video/x-flv, video/mpg, video/webm, video/wmv, video/3gpp; the same list at "
        "https://cloud.google.com/distributed-cloud/hosted/docs/latest/gdch/gemini/capabilities/video); "
        f"video/quicktime, video/x-msvideo and video/x-ms-wmv: {_IANA}",
    ),
    "document": MediaTypes(
        frozenset({"application/pdf", "application/x-javascript", "application/x-python"}),
        "https://ai.google.dev/gemini-api/docs/document-processing (PDF read with vision; other documents "
        "passed the same way are read as plain text) and the MIME list at "
        "https://cloud.google.com/distributed-cloud/hosted/docs/latest/gdch/gemini/capabilities/document "
        "(text/css, text/csv, text/html, text/javascript, application/x-javascript, text/md, application/pdf, "
        "text/x-python, application/x-python, text/rtf, text/plain, text/xml); a .docx is refused "
        "(https://discuss.ai.google.dev/t/i-cant-upload-any-docx-or-other-file/105246)",
        prefixes=("text/",),
    ),
}
