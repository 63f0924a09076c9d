package io.localqueue.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a server's location shows of its URL: never a credential. */
class ServerSettingsTest {

    @Test
    void aUrlIsShownWithoutItsUserInformationOrPasswordParameters() {
        assertThat(ServerSettings.withoutCredentials("jdbc:postgresql://db:5432/app?user=app&password=s3cret&ssl=true "
                + "schema localqueue")).isEqualTo("jdbc:postgresql://db:5432/app?user=app&ssl=true schema localqueue");
        assertThat(ServerSettings.withoutCredentials("jdbc:postgresql://db/app?PASSWORD=s3cret schema q"))
                .isEqualTo("jdbc:postgresql://db/app schema q");
        assertThat(ServerSettings.withoutCredentials("jdbc:postgresql://app:s3cret@db/app?sslpassword=x&a=b schema q"))
                .isEqualTo("jdbc:postgresql://db/app?a=b schema q");
        assertThat(ServerSettings.withoutCredentials("jdbc:postgresql://db/app")).isEqualTo("jdbc:postgresql://db/app");
    }
}
