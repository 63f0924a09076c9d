package io.localqueue.samples.email;

import jakarta.validation.constraints.NotBlank;

/**
 * An email to send; stored on the queue as JSON.
 *
 * @param to the recipient
 * @param subject the subject line
 * @param body the text
 */
public record Email(@NotBlank @jakarta.validation.constraints.Email String to, @NotBlank String subject, String body) {
}
